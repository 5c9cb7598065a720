-- The Neovim 0.7 set-up of docs/editors.md, as written there (its first ```lua block,
-- run as an init.lua would run it, `planilla` found on PATH): opening .pgn files gives
-- them the filetype pgn, attaches one planilla client to both, and their diagnostics
-- are check's findings.
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

local doc = T.read(T.root .. '/docs/editors.md')
local snippet = doc:match('## Neovim.-```lua\n(.-)```')
T.ok(snippet, 'docs/editors.md has no ```lua block under ## Neovim')
T.ok(snippet:find('vim.lsp.start_client', 1, true), 'the first snippet is not the 0.7 one')
T.ok(vim.fn.exepath('planilla') ~= '', 'planilla is not on PATH')
assert(loadstring(snippet, 'docs/editors.md'))()

local function wait_attached(buf)
  T.ok(vim.wait(T.timeout, function()
    return #vim.diagnostic.get(buf) > 0
  end, 10), 'no diagnostics for ' .. vim.api.nvim_buf_get_name(buf))
end

vim.o.hidden = true
local paths = { T.copy('corpora/check/repair.pgn'), T.copy('corpora/check/illegal.pgn') }
local bufs = {}
for _, path in ipairs(paths) do
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  T.eq(vim.bo[buf].filetype, 'pgn', path .. ': filetype')
  wait_attached(buf)
  T.same_findings(T.diagnostics(buf), T.check(path, { '--no-config' }), path)
  table.insert(bufs, buf)
end
local clients = vim.lsp.get_active_clients()
T.eq(#clients, 1, 'clients started for two files')
T.eq(clients[1].name, 'planilla', 'the client\'s name')
for _, buf in ipairs(bufs) do
  T.ok(vim.lsp.buf_is_attached(buf, clients[1].id), 'a buffer is not attached')
end
local id = clients[1].id
clients[1].stop()
T.ok(vim.wait(T.timeout, function()
  return vim.lsp.client_is_stopped(id)
end, 10), 'the server did not stop')
T.done('the Neovim 0.7 set-up of docs/editors.md: one client, check\'s diagnostics')
