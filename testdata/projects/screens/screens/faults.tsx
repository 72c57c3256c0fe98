import { screen, Page, Text, Image } from 'tent/ui'

// Screens that must fail, each in its own way.
export const brokenScreen = screen({
  path: '/broken',
  load: async (ctx) => {
    const note = await ctx.db.notes.get('nope')
    return { body: note.body }
  },
  view: ({ body }) => <Page title="Broken"><Text>{body}</Text></Page>,
})

export const blankScreen = screen({
  path: '/blank',
  view: () => null,
})

export const remoteImageScreen = screen({
  path: '/outside/image/:port',
  view: (data) => (
    <Page title="Outside">
      <Image src={`http://127.0.0.1:${data.port}/image.png`} />
    </Page>
  ),
  load: async (ctx, params) => ({ port: params.port }),
})

export const passwdImageScreen = screen({
  path: '/outside/passwd',
  view: () => (
    <Page title="Outside">
      <Image src="file:///etc/passwd" />
    </Page>
  ),
})

export const plainImgScreen = screen({
  path: '/outside/img/:port',
  load: async (ctx, params) => ({ port: params.port }),
  view: ({ port }) => (
    <Page title="Outside">
      <img src={`http://127.0.0.1:${port}/plain.png`} />
    </Page>
  ),
})

export const iframeScreen = screen({
  path: '/outside/iframe',
  view: () => (
    <Page title="Outside">
      <iframe src="file:///etc/passwd" />
    </Page>
  ),
})

export const escapeImageScreen = screen({
  path: '/outside/escape',
  view: () => (
    <Page title="Outside">
      <Image src="../../../tmp/outside.png" />
    </Page>
  ),
})

export const spinScreen = screen({
  path: '/spin',
  view: () => {
    while (true) {}
  },
})
