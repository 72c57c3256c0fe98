import { screen, Page, Heading, Text } from 'tent/ui'

// One note; its body as it was written, which may look like HTML.
export const noteScreen = screen({
  path: '/notes/:id',
  title: 'Note',
  load: async (ctx, params) => ({ note: await ctx.db.notes.get(params.id) }),
  view: ({ note }) => (
    <Page title={`Note ${note.id}`}>
      <Heading>Note {note.id}</Heading>
      <Text>{note.body}</Text>
      <Text>Sent from {note.homeAddress}</Text>
    </Page>
  ),
})
