-- Helpers for the Neovim end-to-end tests of `planilla lsp` (Neovim 0.7+, headless, its
-- built-in LSP client). Each test is a Lua file run by scripts/test-editors as
--
--   nvim --headless --clean -n -i NONE -u NONE -c 'luafile tests/editors/nvim/T.lua'
--
-- with PLANILLA (the binary), ROOT (the repository) and WORK (a scratch directory) in the
-- environment. A test prints what it checks; the first failed check quits with status 1.

local T = {}

T.planilla = assert(os.getenv('PLANILLA'), 'PLANILLA: the planilla binary')
T.root = assert(os.getenv('ROOT'), 'ROOT: the repository')
T.work = assert(os.getenv('WORK'), 'WORK: a scratch directory')
T.timeout = tonumber(os.getenv('NVIM_LSP_TIMEOUT') or '') or 10000

local function out(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end

T.say = out

--- Fails the test: the message, then quit with status 1.
function T.fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  io.stderr:flush()
  vim.cmd('cquit 1')
end

function T.ok(cond, msg)
  if not cond then
    T.fail(msg)
  end
  return cond
end

function T.eq(got, want, what)
  if not vim.deep_equal(got, want) then
    T.fail(what .. ':\n  got:  ' .. vim.inspect(got) .. '\n  want: ' .. vim.inspect(want))
  end
end

--- Writes `text` to a file of WORK and returns its path.
function T.write(name, text)
  local path = T.work .. '/' .. name
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
  return path
end

function T.read(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

--- Copies a file of the repository into WORK (tests edit their copy, never the corpus).
function T.copy(rel, name)
  return T.write(name or vim.fn.fnamemodify(rel, ':t'), T.read(T.root .. '/' .. rel))
end

--- Runs a command (a list, each word quoted); returns its standard output (standard
--- error apart, in T.stderr), and its status.
function T.run(cmd)
  local words = {}
  for _, w in ipairs(cmd) do
    table.insert(words, vim.fn.shellescape(w))
  end
  local err = T.work .. '/stderr.txt'
  local stdout = vim.fn.system(table.concat(words, ' ') .. ' 2>' .. vim.fn.shellescape(err))
  local status = vim.v.shell_error
  T.stderr = T.read(err)
  return stdout, status
end

--- The text of a buffer as a file would hold it (lines joined by LF, a last LF when
--- 'eol').
function T.text(buf)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local s = table.concat(lines, '\n')
  if vim.api.nvim_buf_get_option(buf, 'eol') then
    s = s .. '\n'
  end
  return s
end

--- Fails with a unified diff unless the buffer's text is `want`.
function T.same_text(buf, want, what)
  local got = T.text(buf)
  if got ~= want then
    local a = T.write('want.txt', want)
    local b = T.write('got.txt', got)
    local diff = T.run({ 'diff', '-u', a, b })
    T.fail(what .. ': the buffer differs from what is expected (- expected, + buffer):\n' .. diff)
  end
end

-- The client -------------------------------------------------------------------------

T.published = {} -- uri -> { version = v, diagnostics = {...}, count = n }
T.did_change = {} -- every textDocument/didChange the client sent
T.apply_edits = {} -- every workspace/applyEdit the server sent
T.exit_code = nil

--- Starts `planilla lsp` (with `args`, `--no-config` by default) and returns the client.
function T.start(args)
  vim.o.hidden = true -- several buffers, each edited
  vim.o.report = 100000 -- no "10 fewer lines" on the output
  local cmd = { T.planilla, 'lsp' }
  for _, a in ipairs(args or { '--no-config' }) do
    table.insert(cmd, a)
  end
  local handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      local p = T.published[result.uri] or { count = 0 }
      p.count = p.count + 1
      p.version = result.version
      p.diagnostics = result.diagnostics
      T.published[result.uri] = p
      return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
    end,
    ['workspace/applyEdit'] = function(err, result, ctx, config)
      table.insert(T.apply_edits, result)
      -- Neovim's own handler applies it (its print of the label kept off the output).
      local print = _G.print
      _G.print = function() end
      local ok, answer = pcall(vim.lsp.handlers['workspace/applyEdit'], err, result, ctx, config)
      _G.print = print
      T.ok(ok and answer and answer.applied, 'Neovim did not apply the workspace edit: ' .. vim.inspect(answer))
      return answer
    end,
  }
  local initialized = false
  local id = vim.lsp.start_client({
    name = 'planilla',
    cmd = cmd,
    root_dir = T.work,
    handlers = handlers,
    on_init = function(client)
      -- Record what the client sends on each change (to see that it is incremental).
      local notify = client.notify
      client.notify = function(method, params)
        if method == 'textDocument/didChange' then
          table.insert(T.did_change, vim.deepcopy(params))
        end
        return notify(method, params)
      end
      initialized = true
    end,
    on_exit = function(code)
      T.exit_code = code
    end,
  })
  T.ok(id, 'vim.lsp.start_client did not start ' .. table.concat(cmd, ' '))
  T.ok(vim.wait(T.timeout, function()
    return initialized
  end, 10), 'the server did not answer initialize')
  T.client_id = id
  T.client = vim.lsp.get_client_by_id(id)
  return T.client
end

--- Opens `path` in a buffer attached to the client; waits for its first diagnostics.
function T.open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  T.ok(vim.lsp.buf_attach_client(buf, T.client_id), 'buf_attach_client failed')
  T.wait_diagnostics(buf, 'on open')
  return buf
end

function T.uri(buf)
  return vim.uri_from_bufnr(buf)
end

--- Waits until the server has published diagnostics for the buffer's current version.
function T.wait_diagnostics(buf, when)
  local uri = T.uri(buf)
  local ok = vim.wait(T.timeout, function()
    local p = T.published[uri]
    return p ~= nil and p.version == vim.lsp.util.buf_versions[buf]
  end, 10)
  local p = T.published[uri]
  T.ok(ok, string.format('no diagnostics published %s for version %s (last: %s)', when or '',
    tostring(vim.lsp.util.buf_versions[buf]), p and tostring(p.version) or 'none'))
  return p.diagnostics
end

--- Stops the client: shutdown, exit; the server must end with status 0.
function T.stop()
  T.client.stop()
  T.ok(vim.wait(T.timeout, function()
    return T.exit_code ~= nil
  end, 10), 'the server did not exit after shutdown and exit')
  T.eq(T.exit_code, 0, 'the server\'s exit status after shutdown and exit')
end

--- Ends the test (the server stopped first): status 0.
function T.done(name)
  if T.client and T.exit_code == nil then
    T.stop()
  end
  out('ok   ' .. name)
  vim.cmd('qa!')
end

-- Diagnostics and check's findings ----------------------------------------------------

local vim_severity = { error = 1, warning = 2, note = 3 }

--- The buffer's diagnostics from Neovim's diagnostic store, as comparable records:
--- 0-based line, column in characters, code, severity, message, and the underlined text.
function T.diagnostics(buf)
  local records = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1] or ''
    local col = vim.str_utfindex(line, math.min(d.col, #line))
    local text
    if d.end_lnum == d.lnum then
      text = line:sub(d.col + 1, d.end_col)
    end
    local end_line = vim.api.nvim_buf_get_lines(buf, d.end_lnum, d.end_lnum + 1, false)[1] or ''
    table.insert(records, {
      line = d.lnum,
      col = col,
      end_line = d.end_lnum,
      end_col = vim.str_utfindex(end_line, math.min(d.end_col, #end_line)),
      first = line:sub(d.col + 1, d.col + 1),
      code = d.code,
      severity = d.severity,
      message = d.message,
      text = text,
      source = d.source,
    })
  end
  T.sort(records)
  return records
end

function T.sort(records)
  table.sort(records, function(a, b)
    if a.line ~= b.line then
      return a.line < b.line
    end
    if a.col ~= b.col then
      return a.col < b.col
    end
    if a.code ~= b.code then
      return a.code < b.code
    end
    return a.message < b.message
  end)
  return records
end

--- `planilla check --archive --format jsonl` of a file, as the same records (the message
--- as jsonl has it: without the game and move prefix). With `as`, the file's text is the
--- document's at the path `as`: archive messages that name the file name `as`.
function T.check(path, args, as)
  local cmd = { T.planilla, 'check', '--archive', '--format', 'jsonl' }
  for _, a in ipairs(args or { '--no-config' }) do
    table.insert(cmd, a)
  end
  table.insert(cmd, path)
  local stdout, status = T.run(cmd)
  T.ok(status == 0 or status == 1, 'planilla check failed (' .. status .. '): ' .. stdout)
  local records = {}
  for _, l in ipairs(vim.split(stdout, '\n', { plain = true })) do
    if l ~= '' then
      local f = vim.json.decode(l)
      if f.type == 'finding' then
        table.insert(records, {
          line = f.line - 1,
          col = f.column - 1,
          code = f.code,
          severity = vim_severity[f.severity],
          message = as and f.message:gsub(vim.pesc(path), (as:gsub('%%', '%%%%'))) or f.message,
          game = f.game,
          move = f.move ~= vim.NIL and f.move or nil,
        })
      end
    end
  end
  T.sort(records)
  return records
end

--- Fails unless the editor's diagnostics are check's findings, one for one: each finding
--- has its own diagnostic with the same line, column, code, severity, source `planilla`,
--- and check's message (`game N, ...: ` then jsonl's message); a move's finding
--- underlines the move (a move written with a suffix apart, `exf6 e.p.`: its first word).
--- A finding whose place is inside a comment (a clock command, the end of a file cut in
--- a comment) underlines the whole comment: its range starts at the `{` and holds
--- check's column.
function T.same_findings(got, want, what)
  local function show(r)
    return string.format('%d:%d %s %s', r.line + 1, r.col + 1, r.code, r.message)
  end
  local function matches(g, w)
    local same_place = g.line == w.line and g.col == w.col
    local function before(l1, c1, l2, c2)
      return l1 < l2 or (l1 == l2 and c1 < c2)
    end
    local in_comment = g.first == '{' and before(g.line, g.col, w.line, w.col)
      and not before(g.end_line, g.end_col, w.line, w.col)
    local message = g.message:match('^game (%d+)[,:]') == tostring(w.game)
      and g.message:sub(-#w.message) == w.message
    local move = not (same_place and w.move and g.text) or g.text == w.move
      or w.move:sub(1, #g.text + 1) == g.text .. ' '
    return (same_place or in_comment) and g.code == w.code and g.severity == w.severity
      and g.source == 'planilla' and message and move
  end
  local used = {}
  local missing = {}
  for _, w in ipairs(want) do
    local found = false
    for i, g in ipairs(got) do
      if not used[i] and matches(g, w) then
        used[i] = true
        found = true
        break
      end
    end
    if not found then
      table.insert(missing, '    ' .. show(w))
    end
  end
  local extra = {}
  for i, g in ipairs(got) do
    if not used[i] then
      table.insert(extra, string.format('    %s (underlines %s, source %s, severity %d)', show(g),
        vim.inspect(g.text), tostring(g.source), g.severity))
    end
  end
  if #missing > 0 or #extra > 0 then
    T.fail(string.format('%s: %d diagnostics, check finds %d\n  check\'s findings with no diagnostic:\n%s\n  diagnostics that are no finding of check:\n%s',
      what, #got, #want, table.concat(missing, '\n'), table.concat(extra, '\n')))
  end
end

-- Code actions ------------------------------------------------------------------------

--- The code actions the server offers for an LSP range of the buffer, sent with the
--- diagnostics of the range's first line (as vim.lsp.buf.code_action does). By default
--- they are sent as the server published them, as Neovim 0.8+ does; `diagnostics`, when
--- given, are sent instead (0.7's own conversion back, vim.lsp.diagnostic.
--- get_line_diagnostics, gives byte columns for UTF-16 units).
function T.code_actions(buf, range, only, diagnostics)
  if not diagnostics then
    diagnostics = {}
    for _, d in ipairs((T.published[T.uri(buf)] or {}).diagnostics or {}) do
      if d.range.start.line == range.start.line then
        table.insert(diagnostics, d)
      end
    end
  end
  local params = {
    textDocument = { uri = T.uri(buf) },
    range = range,
    context = { diagnostics = diagnostics, only = only },
  }
  local response, err = T.client.request_sync('textDocument/codeAction', params, T.timeout, buf)
  T.ok(response and not response.err, 'textDocument/codeAction failed: '
    .. vim.inspect(err or (response and response.err)))
  return response.result or {}
end

--- The LSP range of the whole buffer.
function T.whole(buf)
  local n = vim.api.nvim_buf_line_count(buf)
  return { start = { line = 0, character = 0 }, ['end'] = { line = n, character = 0 } }
end

--- The action of `actions` titled `title`, else a failure that lists the titles.
function T.action(actions, title)
  local titles = {}
  for _, a in ipairs(actions) do
    if a.title == title then
      return a
    end
    table.insert(titles, a.title)
  end
  T.fail('no code action titled ' .. vim.inspect(title) .. '; offered: ' .. vim.inspect(titles))
end

return T
