import { screen, Page, Text } from 'tent/ui'

// A screen that tries every way to carry a private value to the page:
// reversed, spaced, as char codes, through load, through an update's
// answer, through the user, and the row's own keys.
const rev = (s) => (s == null ? '' : String(s).split('').reverse().join(''))
const spaced = (s) => (s == null ? '' : String(s).split('').join(' '))
const codes = (s) => (s == null ? '' : Array.from(String(s)).map((c) => c.charCodeAt(0)).join(','))

export const leakScreen = screen({
  path: '/leak/:id',
  title: 'Leak',
  load: async (ctx, params) => {
    const note = await ctx.db.notes.get(params.id)
    const all = await ctx.db.notes.all()
    const where = await ctx.db.notes.where({ author: note.author })
    const updated = await ctx.db.notes.update(params.id, { amount: 1 })
    return { note, all, where, updated, user: ctx.user, loaded: rev(note.homeAddress) + rev(ctx.user && ctx.user.secretNote) }
  },
  view: ({ note, all, where, updated, user, loaded }) => (
    <Page title="Leak">
      <Text>{rev(note.homeAddress)}</Text>
      <Text>{spaced(note.homeAddress)}</Text>
      <Text>{codes(note.homeAddress)}</Text>
      <Text>{all.map((n) => rev(n.homeAddress)).join('|')}</Text>
      <Text>{where.map((n) => spaced(n.homeAddress)).join('|')}</Text>
      <Text>{rev(updated.homeAddress)}</Text>
      <Text>{rev(user && user.secretNote)}</Text>
      <Text>{loaded}</Text>
      <Text>{JSON.stringify(Object.keys(note))}</Text>
    </Page>
  ),
})
