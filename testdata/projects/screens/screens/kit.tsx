import { screen, Page, Section, Heading, Text, Table, List, Form, Field, Button, Link, Badge, Stat, Image } from 'tent/ui'

// Every component of 'tent/ui' once, and plain HTML elements, over the notes.
export const kitScreen = screen({
  path: '/kit',
  title: 'Kit',
  load: async (ctx) => {
    const notes = await ctx.db.notes.all({ order: 'id' })
    const author = await ctx.db.users.get('u1')
    return { notes, author }
  },
  view: ({ notes, author }) => (
    <Page title="Every component">
      <Section title="Figures">
        <Stat label="Notes" value={notes.length} />
        <Stat label="Largest" value={Math.max(...notes.map((n) => n.amount))} />
        <Badge tone="success">ok</Badge>
        <Badge tone="warning">low</Badge>
        <Badge tone="danger">late</Badge>
        <Badge>plain</Badge>
      </Section>
      <Section>
        <Heading>All notes</Heading>
        <Heading level={3}>A smaller heading</Heading>
        <Text>Written by {author.name}; kept {author.secretNote} to themselves.</Text>
        <Table rows={notes} columns={['body', 'amount', 'homeAddress']} />
        <Table rows={notes.map((n) => ({ id: n.id, amount: n.amount, where: n.homeAddress }))} />
        <List>
          {notes.map((n) => (
            <Link to={`/notes/${n.id}`}>{n.body}</Link>
          ))}
        </List>
      </Section>
      <Section title="Plain elements">
        <p>
          A <strong>strong</strong> word, an <em>emphasised</em> one and <code>code</code>.
        </p>
        <ul>
          <li>one</li>
          <li>two</li>
        </ul>
        <Image src="images/logo.png" alt="The logo" />
        <Image src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC" alt="One pixel" />
      </Section>
      <Form action="addNote">
        <Field name="author" type="hidden" value={author.id} />
        <Field name="body" label="Your note" />
        <Field name="amount" label="Amount" type="number" value={10} />
        <Field name="more" label="More" type="textarea" />
        <Button type="submit">Add note</Button>
        <Button>Cancel</Button>
      </Form>
    </Page>
  ),
})
