-- Open a table, see its diagnostics, break a ref and fix it, then
-- prepareRename + rename a column (the editor writes), :wall, quit.
package.path = os.getenv('TENT_SCRIPTS') .. '/?.lua;' .. package.path
local t = require('common')
t.open('tables/orders.ts', { caller = 'ann', agent = 'nvim' })

-- Break the ref: users -> userz, through an incremental change.
local line, col = t.cursor("ref('users')", 5)
vim.api.nvim_buf_set_text(0, line, col + 4, line, col + 5, { 'z' })
t.wait('T2003 after breaking the ref', function() return t.codes():find('T2003') ~= nil end)
vim.api.nvim_buf_set_text(0, line, col + 4, line, col + 5, { 's' })
t.wait('T2003 gone after the fix', function() return t.codes():find('T2003') == nil end)

-- prepareRename answers the range and the placeholder.
t.cursor('buyer:', 1)
local res = t.client.request_sync('textDocument/prepareRename', vim.lsp.util.make_position_params(), 10000, 0)
if not res or res.err or not res.result or res.result.placeholder ~= 'buyer' then
  t.fail('prepareRename: ' .. vim.inspect(res))
end

local from = #t.changed
vim.lsp.buf.rename('customer')
t.wait('the rename applied to the buffer', function() return t.buffer_has('customer: ref(') end)
vim.cmd('silent wall')
t.saved(from)
print('OK')
vim.cmd('qa!')
