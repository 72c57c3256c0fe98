-- Run headless by lsp/nvim_test.go's TestNeovimSnippet, with the docs'
-- snippet (docs/pages/lsp.md) as init.lua and Neovim started in the folder
-- above the project: each file finds its project upward, the three files
-- of the project share one server whose root is the project, the keymaps
-- are set, hover answers, and a file outside the project gets no server.
local root = os.getenv('TENT_ROOT')
local rel = os.getenv('TENT_REL')

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function wait(what, cond)
  if not vim.wait(20000, cond, 20) then fail('timed out waiting for ' .. what) end
end

local function tent_clients()
  local out = {}
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    if c.name == 'tent' then table.insert(out, c) end
  end
  return out
end

vim.cmd('edit outside.ts')
local outside = vim.api.nvim_get_current_buf()
local bufs = {}
for _, f in ipairs({ 'tables/orders.ts', 'tables/users.ts', 'functions/orders.ts' }) do
  vim.cmd('edit ' .. rel .. '/' .. f)
  table.insert(bufs, vim.api.nvim_get_current_buf())
end
wait('one client, initialized', function()
  local cs = tent_clients()
  return #cs == 1 and cs[1].initialized
end)
local client = tent_clients()[1]
if client.config.root_dir ~= root then
  fail('root_dir ' .. tostring(client.config.root_dir) .. ', want ' .. root)
end
for _, b in ipairs(bufs) do
  if not vim.lsp.buf_is_attached(b, client.id) then fail('buffer ' .. b .. ' is not attached') end
end
if vim.lsp.buf_is_attached(outside, client.id) then fail('the file outside the project is attached') end
if #tent_clients() ~= 1 then fail(#tent_clients() .. ' clients for one project') end

-- The keymaps of the snippet, on the project's buffers.
vim.cmd('buffer ' .. bufs[1])
for _, keys in ipairs({ 'K', 'gd', 'gr' }) do
  local m = vim.fn.maparg(keys, 'n', false, true)
  if m.buffer ~= 1 then fail('no buffer keymap ' .. keys) end
end
local m = vim.fn.maparg('<leader>rn', 'n', false, true)
if m.buffer ~= 1 then fail('no buffer keymap <leader>rn') end

-- Hover on the table's name answers, from the project's index.
local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
for i, line in ipairs(lines) do
  local col = line:find('const orders', 1, true)
  if col then
    vim.api.nvim_win_set_cursor(0, { i, col - 1 + #'const ' })
    break
  end
end
local res = vim.lsp.buf_request_sync(0, 'textDocument/hover', vim.lsp.util.make_position_params(), 20000)
local text = ''
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then
    local c = r.result.contents
    text = text .. (type(c) == 'table' and (c.value or vim.inspect(c)) or tostring(c))
  end
end
if not text:find('orders') then fail('hover said: ' .. text) end

io.stdout:write('OK\n')
vim.cmd('qall!')
