-- (c) Typing in the buffer: keys fed to Neovim as a user types them change the text;
-- Neovim sends them as incremental changes (a range and its new text), and after each
-- the server publishes, for that version, exactly the diagnostics `planilla check` finds
-- in the buffer's text: a corrected move's diagnostic goes away, a new mistake gets one,
-- games deleted or added renumber the rest, undo brings back the first ones.
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

T.start()
local path = T.copy('corpora/check/repair.pgn')
local buf = T.open(path)
local original = T.diagnostics(buf)
T.same_findings(original, T.check(path), 'on open')

local step = 0
-- Types `keys` (Normal mode) with the cursor at line `row` (1-based) on the first `at`
-- of it; waits for the diagnostics of the new version; compares them with check's of
-- the buffer's text; returns them.
local function type_keys(what, row, at, keys)
  step = step + 1
  local changes = #T.did_change
  if row then
    local line = vim.api.nvim_buf_get_lines(buf, row - 1, row, false)[1]
    local col = line:find(at, 1, true)
    T.ok(col, 'no ' .. at .. ' on line ' .. row .. ': ' .. line)
    vim.api.nvim_win_set_cursor(0, { row, col - 1 })
  end
  if type(keys) == 'function' then
    keys()
  else
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'xt', false)
  end
  T.wait_diagnostics(buf, 'after ' .. what)
  T.ok(#T.did_change > changes, what .. ': Neovim sent no didChange')
  for i = changes + 1, #T.did_change do
    for _, c in ipairs(T.did_change[i].contentChanges) do
      T.ok(c.range ~= nil, what .. ': a change without a range (the whole text, not incremental)')
    end
  end
  local now = T.write('step' .. step .. '.pgn', T.text(buf))
  local got = T.diagnostics(buf)
  T.same_findings(got, T.check(now, nil, path), 'after ' .. what)
  T.say(string.format('     %-55s %2d diagnostics = check\'s', what, #got))
  return got
end

local function has(list, line, code, text)
  for _, d in ipairs(list) do
    if d.line == line and d.code == code and (text == nil or d.text == text) then
      return true
    end
  end
  return false
end

T.ok(has(original, 8, 'illegal-move', 'Nb5'), 'no illegal-move diagnostic on 3. Nb5 at open')

-- Correct the move: r then B on the N of 3. Nb5.
local d = type_keys('typing rB on the N of 3. Nb5', 9, 'Nb5', 'rB')
T.ok(not has(d, 8, 'illegal-move'), 'the illegal-move diagnostic of 3. Nb5 is still there after its correction')

-- A new mistake: change 4. Ba4 into 4. Bh4.
d = type_keys('typing cwBh4<Esc> on 4. Ba4', 9, 'Ba4', 'cwBh4<Esc>')
T.ok(has(d, 8, 'illegal-move', 'Bh4'), 'no illegal-move diagnostic on the new 4. Bh4')

-- Delete the second game (lines 11 to 20): the games after it are renumbered.
d = type_keys('deleting game 2 (10 lines)', 11, '[Event', '10dd')
T.ok(not has(d, 18, 'illegal-move', 'Nc8'), 'the deleted game\'s diagnostic is still there')

-- Add a game at the end, typed in Insert mode, with an illegal move in it.
type_keys('typing a new game at the end (Insert mode)', nil, nil,
  'Go<CR>[Event "typed"]<CR>[Site "?"]<CR>[Date "????.??.??"]<CR>[Round "?"]<CR>'
    .. '[White "C"]<CR>[Black "D"]<CR>[Result "*"]<CR><CR>1. d4 Nf6 2. Nd5 *<Esc>')
local last = vim.api.nvim_buf_line_count(buf) - 1
T.ok(has(T.diagnostics(buf), last, 'illegal-move', 'Nd5'), 'no illegal-move diagnostic on the typed 2. Nd5')

-- Join two lines and split one (changes that cross a line end).
type_keys('joining game 1\'s Result tag and movetext (3J)', 7, '[Result', '3J')
type_keys('splitting them again (r<CR>)', 7, ' 1. e4', 'r<CR>')

-- Undo everything: the diagnostics are those of the opened file again.
d = type_keys('undoing every change (:undo 0)', nil, nil, function()
  vim.cmd('silent undo 0')
end)
T.eq(T.text(buf), T.read(T.root .. '/corpora/check/repair.pgn'), 'the text after undoing every change')
T.eq(#d, #original, 'the number of diagnostics after undoing every change')
T.done('incremental edits: diagnostics follow the typing, as check finds them')
