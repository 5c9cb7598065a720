-- (e) Formatting: vim.lsp.buf.formatting_sync() (Neovim's own formatting path) makes the
-- buffer exactly what `planilla fix --repair` writes of the file; a second formatting
-- changes nothing; the diagnostics are then check's of the fixed text.
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

local files = vim.split(os.getenv('FORMAT_FILES') or '', ' ', { trimempty = true })
T.ok(#files > 0, 'FORMAT_FILES names no file')

T.start()
for _, rel in ipairs(files) do
  local path = T.copy(rel)
  local want, status = T.run({ T.planilla, 'fix', '--repair', '--no-config', path })
  T.ok(status == 0 or status == 1, 'planilla fix failed (' .. status .. '): ' .. want)
  local buf = T.open(path)
  T.ok(T.text(buf) ~= want, rel .. ': planilla fix changes nothing: nothing to check')
  vim.lsp.buf.formatting_sync(nil, T.timeout)
  T.same_text(buf, want, rel .. ' formatted (compared with planilla fix --repair)')
  local response = T.client.request_sync('textDocument/formatting', {
    textDocument = { uri = T.uri(buf) },
    options = { tabSize = 8, insertSpaces = true },
  }, T.timeout, buf)
  T.ok(response and not response.err, rel .. ': the second formatting failed')
  T.eq(response.result or {}, {}, rel .. ': the edits of a second formatting')
  T.wait_diagnostics(buf, 'after formatting')
  T.same_findings(T.diagnostics(buf), T.check(T.write('formatted.pgn', T.text(buf)), nil, path), rel .. ' formatted')
  T.say(string.format('     %-35s = planilla fix --repair', rel))
end
T.done('formatting: the buffer becomes what planilla fix writes')
