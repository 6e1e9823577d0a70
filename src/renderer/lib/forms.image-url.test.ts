// The create form takes the same image URLs as the app's request check and the service
// (src/shared/image-url.ts): a page or a file that is not an image is refused before sending.
import { describe, expect, it } from 'vitest'
import { emptyProjectForm, projectCreateBody } from './forms'

describe('projectCreateBody: image URLs', () => {
  it('accepts an image path in any case, with a query; refuses other http(s) URLs, naming the row', () => {
    const result = projectCreateBody({
      ...emptyProjectForm(),
      name: 'Shop',
      image_urls: [
        'https://img.example.com/a.JPG?w=200',
        'https://img.example.com/gallery',
        'https://img.example.com/notes.txt'
      ]
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(Object.keys(result.errors).sort()).toEqual(['image_urls.1', 'image_urls.2'])
    const ok = projectCreateBody({
      ...emptyProjectForm(),
      name: 'Shop',
      image_urls: ['https://img.example.com/a.JPG?w=200']
    })
    expect(ok).toMatchObject({
      ok: true,
      value: { files_requirement: [{ file_type: 'image', url: 'https://img.example.com/a.JPG?w=200' }] }
    })
  })
})
