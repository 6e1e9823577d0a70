import { describe, expect, it } from 'vitest'
import { IMAGE_EXTENSIONS, isImageUrl } from './image-url'

describe('isImageUrl', () => {
  it('accepts http(s) URLs whose path ends in an image file name, any case, with a query', () => {
    for (const ext of IMAGE_EXTENSIONS) {
      expect(isImageUrl(`https://img.example.com/a/b.${ext}`)).toBe(true)
      expect(isImageUrl(`http://img.example.com/b.${ext.toUpperCase()}`)).toBe(true)
    }
    expect(isImageUrl('https://img.example.com/shot.Png?size=large&v=2')).toBe(true)
    expect(isImageUrl('https://img.example.com/shot.jpeg#top')).toBe(true)
  })

  it('refuses other schemes, other files, a bare host, an extension only in the query, and non-URLs', () => {
    for (const url of [
      'ftp://img.example.com/a.png',
      'data:image/png;base64,AAAA',
      'file:///tmp/a.png',
      'https://img.example.com/',
      'https://img.example.com',
      'https://img.example.com/a.pdf',
      'https://img.example.com/png',
      'https://img.example.com/a.png/',
      'https://img.example.com/a.pngx',
      'https://img.example.com/page?file=a.png',
      'https://img.example.com/.png',
      'not a url',
      ''
    ]) {
      expect(isImageUrl(url), url).toBe(false)
    }
  })

  it('refuses what is not text, even what would read as an image URL as text (a list holding one)', () => {
    for (const value of [
      ['https://img.example.com/a.png'],
      { toString: () => 'https://img.example.com/a.png' },
      null,
      42
    ]) {
      expect(isImageUrl(value as unknown as string), String(value)).toBe(false)
    }
  })
})
