-- Shared by the Neovim scenarios (run headless by lsp/nvim_test.go):
-- starts tent-tools lsp on the project in $TENT_ROOT for the current
-- buffer, records what the server publishes and tells, and answers
-- window/showMessageRequest with $TENT_ANSWER (the default handler asks
-- with inputlist, which blocks a headless run).
local M = {}

M.root = os.getenv('TENT_ROOT')
M.published = {}   -- uri -> the diagnostics last published
M.publishes = 0
M.changed = {}     -- tent/changed params, in order
M.asked = {}       -- the questions the server asked

function M.fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

function M.wait(what, cond)
  if not vim.wait(20000, cond, 20) then
    M.fail('timed out waiting for ' .. what)
  end
end

function M.open(rel, init_options)
  vim.cmd('edit ' .. M.root .. '/' .. rel)
  vim.bo.filetype = 'typescript'
  local id = vim.lsp.start_client({
    name = 'tent',
    cmd = { os.getenv('TENT_BIN'), 'lsp' },
    root_dir = M.root,
    init_options = init_options,
    flags = { debounce_text_changes = 0 },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        M.published[result.uri] = result.diagnostics
        M.publishes = M.publishes + 1
        return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      end,
      ['tent/changed'] = function(_, result)
        table.insert(M.changed, result)
      end,
      ['window/showMessageRequest'] = function(_, params)
        table.insert(M.asked, params.message)
        local answer = os.getenv('TENT_ANSWER')
        if answer == nil or answer == '' then return vim.NIL end
        return { title = answer }
      end,
    },
  })
  if not id then M.fail('the client did not start') end
  vim.lsp.buf_attach_client(0, id)
  M.client = vim.lsp.get_client_by_id(id)
  M.wait('initialize', function() return M.client.initialized end)
  M.wait('the first diagnostics', function() return M.publishes > 0 end)
  return M.client
end

-- codes lists the codes of the diagnostics published for the buffer.
function M.codes()
  local out = {}
  for _, d in ipairs(M.published[vim.uri_from_bufnr(0)] or {}) do
    table.insert(out, d.code)
  end
  return table.concat(out, ',')
end

-- cursor puts the cursor on the first occurrence of text (plus shift).
function M.cursor(text, shift)
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  for i, line in ipairs(lines) do
    local col = line:find(text, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { i, col - 1 + (shift or 0) })
      return i - 1, col - 1 + (shift or 0)
    end
  end
  M.fail('no ' .. text .. ' in the buffer')
end

-- saved waits until the server told a point (the saves recorded).
function M.saved(from)
  M.wait('tent/changed with a point', function()
    for i = from + 1, #M.changed do
      if M.changed[i].point ~= vim.NIL and M.changed[i].point ~= nil then return true end
    end
    return false
  end)
end

function M.buffer_has(text)
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n'):find(text, 1, true) ~= nil
end

return M
