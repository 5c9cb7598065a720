-- (a) Diagnostics on open are check's findings: each UTF-8 file of the corpora is opened
-- in Neovim, and the diagnostics Neovim stores for it are compared one by one with
-- `planilla check --archive --format jsonl` of the same file (line, column in characters,
-- code, severity, source, message, the underlined move).
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

local files = vim.split(os.getenv('DIAGNOSTIC_FILES') or '', ' ', { trimempty = true })
T.ok(#files > 0, 'DIAGNOSTIC_FILES names no file')

T.start()
local total = 0
for _, rel in ipairs(files) do
  local path = T.root .. '/' .. rel
  local buf = T.open(path)
  local got = T.diagnostics(buf)
  local want = T.check(path)
  T.same_findings(got, want, rel)
  T.say(string.format('     %-45s %3d diagnostics = check\'s findings', rel, #got))
  total = total + #got
end
T.ok(total > 20, 'the corpora gave only ' .. total .. ' diagnostics in all')
T.done('diagnostics: ' .. #files .. ' files, ' .. total .. ' diagnostics, as check reports them')
