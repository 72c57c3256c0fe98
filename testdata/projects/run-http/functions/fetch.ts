import { fn, text } from 'tent'

// Fetches a JSON document and answers it with the status.
export const fetchJSON = fn({
  input: { url: text() },
  sends: ['http'],
  run: async (ctx, input) => {
    const res = await ctx.http.fetch(input.url)
    return { status: res.status, ok: res.ok, body: await res.json() }
  },
})

// Posts a message and answers what the server echoed.
export const post = fn({
  input: { url: text(), message: text() },
  sends: ['http'],
  run: async (ctx, input) => {
    const res = await ctx.http.fetch(input.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: input.message,
    })
    return { status: res.status, echo: await res.text(), type: res.headers.get('Content-Type') }
  },
})

// Calls a function by a name the index cannot read, so sending is only
// known when it happens.
export const indirect = fn({
  input: { url: text() },
  run: async (ctx, input) => {
    const name = ['fetch', 'JSON'].join('')
    return ctx.call(name, { url: input.url })
  },
})

// Mails a note; the address comes from the input.
export const mailNote = fn({
  input: { to: text() },
  sends: ['mail'],
  run: async (ctx, input) => {
    await ctx.mail.send({ to: input.to, subject: 'A note', text: 'Hello from the app.' })
    return 'sent'
  },
})
