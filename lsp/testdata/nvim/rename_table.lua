-- Rename a table with its file open and the others closed: its test data
-- file is renamed (RenameFile) and the closed files edited; :wall, quit.
package.path = os.getenv('TENT_SCRIPTS') .. '/?.lua;' .. package.path
local t = require('common')
t.open('tables/orders.ts', { caller = 'ann', agent = 'nvim' })
t.cursor('orders = table', 1)
local from = #t.changed
vim.lsp.buf.rename('purchases')
t.wait('the rename applied to the buffer', function() return t.buffer_has('export const purchases = table') end)
t.wait('the test data file moved', function()
  return vim.loop.fs_stat(t.root .. '/testdata/purchases.json') ~= nil
end)
vim.cmd('silent wall')
t.saved(from)
print('OK')
vim.cmd('qa!')
