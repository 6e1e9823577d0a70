import { describe, expect, it } from 'vitest'
import { publishMessagesBeside } from './publish'

describe('publishMessagesBeside', () => {
  const url = 'https://my-shop.apps.example.test'

  it('leaves out a message that only repeats the address shown', () => {
    expect(publishMessagesBeside(['Published to https://my-shop.apps.example.test'], url)).toEqual([])
    expect(
      publishMessagesBeside(
        [
          'my-shop.apps.example.test',
          'Published at MY-SHOP.apps.example.test/.',
          'Successfully deployed: https://my-shop.apps.example.test'
        ],
        url
      )
    ).toEqual([])
  })

  it('keeps every message that says more, with or without the address', () => {
    const kept = [
      'Published to https://my-shop.apps.example.test; DNS may take 5 minutes',
      'The certificate is being issued.',
      'Published to https://other.apps.example.test'
    ]
    expect(publishMessagesBeside(kept, url)).toEqual(kept)
  })

  it('a host that is a prefix of another is not taken for it', () => {
    expect(publishMessagesBeside(['Published to https://my-shop.apps.example.test.evil.example'], url)).toEqual([
      'Published to https://my-shop.apps.example.test.evil.example'
    ])
  })
})
