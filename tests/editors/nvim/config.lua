-- (f) planilla.toml applies: a document in a directory below a planilla.toml that ignores
-- illegal-move and sets the rules gets check's findings under that file, and no
-- illegal-move diagnostic (the server started without --no-config).
package.path = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/?.lua;' .. package.path
local T = require('lib')

vim.fn.mkdir(T.work .. '/archive/games', 'p')
local toml = T.write('archive/planilla.toml', 'ignore = ["illegal-move", "missing-tag"]\n')
local path = T.write('archive/games/repair.pgn', T.read(T.root .. '/corpora/check/repair.pgn'))

T.start({ '--stdio' })
local buf = T.open(path)
local got = T.diagnostics(buf)
for _, d in ipairs(got) do
  T.ok(d.code ~= 'illegal-move', 'an illegal-move diagnostic though planilla.toml ignores it: ' .. d.message)
end
T.ok(#T.check(path) > #got, 'planilla.toml ignored nothing')
T.same_findings(got, T.check(path, { '--config', toml }), 'under planilla.toml')
T.say(string.format('     %-45s %2d diagnostics = check --config planilla.toml', 'archive/games/repair.pgn', #got))
T.done('planilla.toml above the document applies')
