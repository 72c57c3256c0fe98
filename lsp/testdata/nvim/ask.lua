-- A policy that asks: the person's answer comes from the overridden
-- window/showMessageRequest ($TENT_ANSWER). Yes: the edit is applied and
-- saved; No: the rename answers T3103 and nothing changes.
package.path = os.getenv('TENT_SCRIPTS') .. '/?.lua;' .. package.path
local t = require('common')
t.open('tables/orders.ts', { caller = 'ann', agent = 'nvim', policy = { ask = { 'rename:column' } } })
t.cursor('buyer:', 1)
local params = vim.lsp.util.make_position_params()
params.newName = 'customer'
local from = #t.changed
local res = t.client.request_sync('textDocument/rename', params, 10000, 0)
if #t.asked ~= 1 or not t.asked[1]:find('rename:column orders.buyer', 1, true) then
  t.fail('the person was not asked about the change: ' .. vim.inspect(t.asked))
end
if os.getenv('TENT_ANSWER') == 'Yes' then
  if not res or res.err then t.fail('rename after yes: ' .. vim.inspect(res)) end
  vim.lsp.util.apply_workspace_edit(res.result, t.client.offset_encoding)
  vim.cmd('silent wall')
  t.saved(from)
else
  if not res or not res.err or not tostring(res.err.message):find('^T3103') then
    t.fail('rename after no: ' .. vim.inspect(res))
  end
end
print('OK')
vim.cmd('qa!')
