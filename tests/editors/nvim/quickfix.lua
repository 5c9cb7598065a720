-- (b) Quick fixes: the code action Neovim gets for a diagnostic, applied by Neovim's own
-- vim.lsp.util.apply_workspace_edit, gives the expected buffer (corpora/lsp/*.pgn), edits
-- only the faulty token, and the diagnostic goes away.
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

-- Fixes the diagnostic of `code` whose underlined text is `token` in a copy of `rel`, and
-- compares the buffer with corpora/lsp/`expected`. With `as_07`, the code action is asked
-- with the line's diagnostics as Neovim 0.7's vim.lsp.buf.code_action sends them
-- (vim.lsp.diagnostic.get_line_diagnostics: byte columns where the server counts UTF-16
-- units), not as the server published them.
local n = 0
local function quick_fix(rel, code, token, title, expected, as_07)
  n = n + 1
  local path = T.copy(rel, n .. '-' .. vim.fn.fnamemodify(rel, ':t'))
  local buf = T.open(path)
  local uri = T.uri(buf)
  local target
  for _, d in ipairs(T.published[uri].diagnostics) do
    local line = vim.api.nvim_buf_get_lines(buf, d.range.start.line, d.range.start.line + 1, false)[1]
    -- The server's positions count UTF-16 units (Neovim 0.7 offers no other).
    local a = vim.str_byteindex(line, d.range.start.character, true)
    local b = vim.str_byteindex(line, d.range['end'].character, true)
    if not target and d.code == code and line:sub(a + 1, b) == token then
      target = d -- the first
    end
  end
  T.ok(target, rel .. ': no ' .. code .. ' diagnostic underlines ' .. token)
  local sent
  if as_07 then
    sent = vim.lsp.diagnostic.get_line_diagnostics(buf, target.range.start.line)
    local columns = vim.tbl_map(function(d) return d.range.start.character end, sent)
    T.ok(vim.tbl_contains(columns, target.range.start.character) == false,
      rel .. ': Neovim 0.7 sends the diagnostic back in the server\'s own columns; the case tests nothing')
  end
  local actions = T.code_actions(buf, target.range, nil, sent)
  -- Neovim sends every diagnostic of the line: the fixes that answer this one (each
  -- names the diagnostic as the client sent it).
  local fixes = vim.tbl_filter(function(a)
    local d = a.diagnostics and a.diagnostics[1]
    return a.kind == 'quickfix' and d and d.code == code
      and (as_07 or vim.deep_equal(d.range, target.range))
  end, actions)
  T.eq(#fixes, 1, rel .. ': the number of quick fixes for ' .. token)
  local fix = fixes[1]
  T.eq(fix.title, title, rel .. ': the quick fix\'s title')
  T.eq(fix.isPreferred, true, rel .. ': isPreferred')
  -- The minimal edit: the token's own range.
  local edits = fix.edit and fix.edit.changes and fix.edit.changes[uri]
  T.ok(edits and #edits == 1, rel .. ': the quick fix is not one text edit: ' .. vim.inspect(fix.edit))
  T.eq(edits[1].range, target.range, rel .. ': the edit\'s range (the faulty token only)')
  vim.lsp.util.apply_workspace_edit(fix.edit, T.client.offset_encoding)
  T.same_text(buf, T.read(T.root .. '/corpora/lsp/' .. expected), rel .. ' after the quick fix')
  -- The change went to the server; its diagnostics are check's of the expected file.
  T.wait_diagnostics(buf, 'after the quick fix')
  for _, d in ipairs(T.diagnostics(buf)) do
    T.ok(not (d.line == target.range.start.line and d.code == code and d.text == token),
      rel .. ': the ' .. code .. ' diagnostic is still there after its fix: ' .. d.message)
  end
  T.same_findings(T.diagnostics(buf), T.check(T.root .. '/corpora/lsp/' .. expected, nil, path), rel .. ' after the quick fix')
  T.say(string.format('     %-30s %s', rel, title))
end

T.start()
quick_fix('corpora/check/repair.pgn', 'illegal-move', 'Nb5', "planilla fix: 'Nb5' → 'Bb5'", 'repair.quickfix.pgn')
quick_fix('corpora/check/repair.pgn', 'ambiguous-move', 'Nd2', "planilla fix: 'Nd2' → 'Nfd2'", 'repair.ambiguous.pgn')
quick_fix('corpora/fix/spanish.pgn', 'redundant-disambiguation', 'Cg1f3', "planilla fix: 'Cg1f3' → 'Cf3'", 'spanish.quickfix.pgn')
quick_fix('corpora/fix/spanish.pgn', 'check-mark', 'Dxf7', "planilla fix: 'Dxf7' → 'Dxf7#'", 'spanish.mate.pgn')
-- After a character that is two bytes in UTF-8 and one UTF-16 unit (the ½).
quick_fix('corpora/lsp/draw-mark.pgn', 'non-standard-result', '½-½', "planilla fix: '½-½' → '1/2-1/2'", 'draw-mark.quickfix.pgn')
-- After accented letters and a ½ in a comment, the diagnostic sent back as Neovim 0.7
-- converts it (byte columns): the server finds it by its code, line and message.
quick_fix('corpora/lsp/accents.pgn', 'illegal-move', 'Nb5', "planilla fix: 'Nb5' → 'Bb5'", 'accents.quickfix.pgn', true)
T.done('quick fixes: the fix applied by Neovim gives the expected buffer')
