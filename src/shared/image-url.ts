// Which URLs a files_requirement entry may carry: "only image URLs are accepted for now"
// (docs/service-interface.md §2.2). One rule for the reference service, the app and the window.

export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'avif', 'bmp', 'ico'] as const

// The last path segment: a name, a dot, an image extension (any case). A query may follow.
const IMAGE_PATH = new RegExp(`/[^/]+\\.(${IMAGE_EXTENSIONS.join('|')})$`, 'i')

/** An absolute http(s) URL with a host whose path ends in an image file name, e.g. https://x.test/a.PNG?v=2. */
export function isImageUrl(text: string): boolean {
  if (typeof text !== 'string') return false
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return false
  }
  // An http(s) URL without a host does not parse (WHATWG URL: special schemes need one).
  return (url.protocol === 'http:' || url.protocol === 'https:') && IMAGE_PATH.test(url.pathname)
}
