-- (d) Conversion: in a Spanish UTF-8 file, the code action "Convert this file to English
-- (planilla convert)" carries the command planilla.convert; executed as Neovim executes
-- it (workspace/executeCommand), the server sends workspace/applyEdit and Neovim applies
-- it: the buffer is then exactly what `planilla convert --to en` writes of the file. The
-- same back to Spanish, and "Convert this game to ..." (an edit) on one game.
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

local rel = os.getenv('CONVERT_FILE') or 'corpora/fix/spanish.pgn'

--- What `planilla convert --to LANG` writes of `text`.
local function convert(text, lang)
  local path = T.write('convert-in.pgn', text)
  local stdout, status = T.run({ T.planilla, 'convert', '--to', lang, path })
  T.ok(status == 0 or status == 1, 'planilla convert failed (' .. status .. '): ' .. stdout)
  return stdout
end

--- Runs the file conversion to `lang` (its title `title`) as Neovim does.
local function convert_file(buf, lang, title)
  local uri = T.uri(buf)
  local before = T.text(buf)
  local want = convert(before, lang)
  T.ok(want ~= before, rel .. ': convert --to ' .. lang .. ' changes nothing: nothing to check')
  local actions = T.code_actions(buf, { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } })
  local action = T.action(actions, title)
  T.eq(action.kind, 'source.convert', title .. ': kind')
  T.ok(action.edit == nil and action.command, title .. ': not a command')
  T.eq({ action.command.command, action.command.arguments }, { 'planilla.convert', { uri, lang } },
    title .. ': command and arguments')
  local applied = #T.apply_edits
  local response, err = T.client.request_sync('workspace/executeCommand', {
    command = action.command.command,
    arguments = action.command.arguments,
  }, T.timeout, buf)
  T.ok(response and not response.err, 'workspace/executeCommand failed: '
    .. vim.inspect(err or (response and response.err)))
  T.ok(vim.wait(T.timeout, function()
    return #T.apply_edits > applied
  end, 10), title .. ': the server sent no workspace/applyEdit')
  T.same_text(buf, want, title .. ' (compared with planilla convert --to ' .. lang .. ')')
  T.wait_diagnostics(buf, 'after ' .. title)
  T.say(string.format('     %-45s = planilla convert --to %s', title, lang))
end

T.start()
local buf = T.open(T.copy(rel))
convert_file(buf, 'en', 'Convert this file to English (planilla convert)')
convert_file(buf, 'es', 'Convert this file to Spanish (planilla convert)')

-- "Convert this game to English" on the second game: that game becomes what convert
-- writes of it alone, the others stay as they are.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local starts = {}
for i, l in ipairs(lines) do
  if l:sub(1, 7) == '[Event ' then
    table.insert(starts, i)
  end
end
T.ok(#starts >= 3, rel .. ': fewer than 3 games')
local a, b = starts[2], starts[3] - 1 -- 1-based lines of game 2
local game = table.concat(vim.list_slice(lines, a, b), '\n') .. '\n'
local converted = convert(game, 'en')
T.ok(converted ~= game, 'game 2 is already English: nothing to check')
local want = table.concat(vim.list_slice(lines, 1, a - 1), '\n') .. '\n' .. converted
  .. table.concat(vim.list_slice(lines, b + 1, #lines), '\n') .. '\n'
local actions = T.code_actions(buf, { start = { line = a + 1, character = 0 }, ['end'] = { line = a + 1, character = 0 } })
local action = T.action(actions, 'Convert this game to English (planilla convert)')
T.eq(action.kind, 'refactor.rewrite', 'Convert this game: kind')
T.ok(action.edit, 'Convert this game: no edit')
local edits = action.edit.changes[T.uri(buf)]
for _, e in ipairs(edits) do
  T.ok(e.range.start.line >= a - 1 and e.range['end'].line <= b - 1,
    'Convert this game: an edit outside game 2: ' .. vim.inspect(e))
end
vim.lsp.util.apply_workspace_edit(action.edit, T.client.offset_encoding)
T.same_text(buf, want, 'Convert this game to English (game 2)')
T.say(string.format('     %-45s = planilla convert of game 2 alone (%d edits)', 'Convert this game to English', #edits))
T.done('convert: the commands and the action give what planilla convert writes')
