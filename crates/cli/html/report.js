// planilla's HTML report: builds the page from the two JSON blocks above it.
//
// Every text from the input is put into the page with textContent, never as markup.
// Boards are SVG built from each finding's FEN when they come into view (all at once
// with #draw=all in the address, and before printing); a game's text is laid out the
// same way. The page writes its own state on <body> for tests and tools:
// data-findings, data-positions (findings with a board), data-findings-shown,
// data-boards-drawn, data-texts-drawn, data-state="ready", and the milliseconds from
// the start of loading to a page ready (data-ready-ms) and first drawn (data-painted-ms).
'use strict';
(function () {
  var data = JSON.parse(document.getElementById('planilla-data').textContent);
  var summary = JSON.parse(document.getElementById('planilla-summary').textContent);
  var body = document.body;
  var SEVERITIES = ['error', 'warning', 'note'];
  var SVG = 'http://www.w3.org/2000/svg';

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function plural(n, word) {
    return Number(n).toLocaleString('en') + ' ' + word + (n === 1 ? '' : 's');
  }

  // Files, their games and the games' findings, in the order the run reported them.
  var files = [];
  var findings = [];
  (function group() {
    var file = null;
    var game = null;
    data.forEach(function (entry) {
      if (!file || file.name !== entry.file) {
        file = { name: entry.file, games: [] };
        files.push(file);
        game = null;
      }
      if (!game || game.index !== entry.game || entry.type === 'game') {
        game = { index: entry.game, file: file, text: null, line: 1, truncated: false, findings: [] };
        file.games.push(game);
      }
      if (entry.type === 'game') {
        game.text = entry.text;
        game.line = entry.line;
        game.truncated = entry.truncated;
      } else {
        entry.id = findings.length;
        entry.game_ = game;
        game.findings.push(entry);
        findings.push(entry);
      }
    });
  })();

  // ---- The header: totals and unread inputs. ----
  var top = el('header', 'top');
  var title = el('h1', null, 'planilla check report');
  title.appendChild(el('small', null, 'planilla ' + summary.version));
  top.appendChild(title);
  var totals = el('div', 'totals');
  [['files', 'files', ''], ['games', 'games', ''], ['plies', 'plies', ''],
    ['errors', 'errors', 'error'], ['warnings', 'warnings', 'warning'], ['notes', 'notes', 'note']
  ].forEach(function (t) {
    var box = el('div', 'total ' + t[2]);
    box.appendChild(el('b', null, Number(summary[t[0]]).toLocaleString('en')));
    box.appendChild(el('span', null, t[1]));
    totals.appendChild(box);
  });
  top.appendChild(totals);
  body.appendChild(top);
  if (summary.unread.length > 0) {
    var unread = el('section', 'unread');
    unread.appendChild(el('h2', null, 'Inputs that could not be read'));
    var list = el('ul');
    summary.unread.forEach(function (message) { list.appendChild(el('li', 'mono', message)); });
    unread.appendChild(list);
    body.appendChild(unread);
  }

  // ---- Filters: by severity and by code. ----
  var layout = el('div', 'layout');
  var filters = el('nav', 'filters');
  var main = el('main');
  layout.appendChild(filters);
  layout.appendChild(main);
  body.appendChild(layout);

  var severityOn = {};
  var codeOn = {};
  var boxes = { severity: {}, code: {} };
  var codes = summary.codes.slice().sort(function (a, b) {
    return SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity);
  });

  function checkbox(kind, name, label, count, severity) {
    var row = el('label');
    row.title = label;
    var box = el('input');
    box.type = 'checkbox';
    box.checked = true;
    box.addEventListener('change', function () { changed(); });
    boxes[kind][name] = box;
    row.appendChild(box);
    row.appendChild(el('span', 'dot ' + severity));
    row.appendChild(kind === 'code' ? el('code', null, label) : el('span', null, label));
    var only = el('button', 'only', 'only');
    only.type = 'button';
    only.title = 'show only ' + label;
    only.addEventListener('click', function (event) {
      event.preventDefault();
      Object.keys(boxes[kind]).forEach(function (key) { boxes[kind][key].checked = key === name; });
      changed();
    });
    row.appendChild(only);
    row.appendChild(el('span', 'count', Number(count).toLocaleString('en')));
    return row;
  }

  filters.appendChild(el('h2', null, 'Severity'));
  SEVERITIES.forEach(function (severity) {
    severityOn[severity] = true;
    filters.appendChild(checkbox('severity', severity, severity, summary[severity + 's'], severity));
  });
  filters.appendChild(el('h2', null, 'Code'));
  codes.forEach(function (c) {
    codeOn[c.code] = true;
    filters.appendChild(checkbox('code', c.code, c.code, c.count, c.severity));
  });
  var buttons = el('div', 'buttons');
  var all = el('button', null, 'Show all');
  all.type = 'button';
  all.addEventListener('click', function () { setHash(''); readHash(); });
  buttons.appendChild(all);
  filters.appendChild(buttons);

  // ---- The findings, grouped by file and game. ----
  var status = el('p', 'status');
  main.appendChild(status);
  if (findings.length === 0) {
    main.appendChild(el('div', 'empty', 'No findings: ' + plural(summary.games, 'game') +
      ' in ' + plural(summary.files, 'file') + ' checked.'));
  }

  function tags(text) {
    var found = {};
    var re = /^[ \t]*\[([A-Za-z0-9_]+)[ \t]+"((?:[^"\\\r\n]|\\.)*)"[ \t]*\]/;
    (text || '').split('\n').some(function (line) {
      var m = re.exec(line);
      if (m) {
        found[m[1]] = m[2].replace(/\\(.)/g, '$1');
        return false;
      }
      return line.trim() !== '';
    });
    return found;
  }

  function known(value) { return value && value !== '?' && value !== '????.??.??'; }

  function gameHeader(game) {
    var header = el('header');
    var t = tags(game.text);
    // No game (null): findings about the file itself (a TRF's lines), not about a game.
    header.appendChild(el('span', 'players', game.index === null ? 'The file itself' : 'Game ' + game.index +
      (known(t.White) || known(t.Black) ? ': ' + (t.White || '?') + ' \u2013 ' + (t.Black || '?') : '')));
    var event = [t.Event, t.Round && 'round ' + t.Round, t.Date].filter(known).join(', ');
    if (event) header.appendChild(el('span', 'event', event));
    if (known(t.Result)) header.appendChild(el('span', 'event', t.Result));
    header.appendChild(el('span', 'where', 'line ' + game.line));
    return header;
  }

  function place(f) {
    var parts = ['line ' + f.line + ':' + f.column];
    if (f.ply !== null) parts.push('ply ' + f.ply);
    if (f.variation.length > 0) parts.push('variation ' + f.variation.join('.'));
    return parts.join(' \u00b7 ');
  }

  function findingRow(f) {
    var row = el('li', 'finding ' + f.severity);
    row.dataset.code = f.code;
    row.dataset.severity = f.severity;
    if (f.fen) {
      var figure = el('figure', 'board');
      figure.style.margin = '0';
      figure.appendChild(el('div', 'square'));
      figure.dataset.finding = f.id;
      f.boardEl = figure;
      row.appendChild(figure);
    }
    var info = el('div', 'info');
    var head = el('div', 'head');
    head.appendChild(el('span', 'badge ' + f.severity, f.severity));
    head.appendChild(el('code', 'code', f.code));
    if (f.numbered_move) head.appendChild(el('span', 'move', f.numbered_move));
    info.appendChild(head);
    info.appendChild(el('div', 'place', place(f)));
    info.appendChild(el('p', 'message', f.message));
    row.appendChild(info);
    row.addEventListener('mouseenter', function () { activate(f, false); });
    row.addEventListener('click', function () { activate(f, true); });
    // Tab goes from finding to finding; Enter shows its place in the game's text.
    row.tabIndex = 0;
    row.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') activate(f, true);
    });
    f.row = row;
    return row;
  }

  files.forEach(function (file) {
    var section = el('section', 'file');
    var h = el('h2', null, file.name);
    file.countEl = el('span', 'count');
    h.appendChild(file.countEl);
    section.appendChild(h);
    file.games.forEach(function (game) {
      var article = el('article', 'game');
      article.appendChild(gameHeader(game));
      var columns = el('div', 'columns');
      var list = el('ol', 'findings');
      game.findings.forEach(function (f) { list.appendChild(findingRow(f)); });
      columns.appendChild(list);
      if (game.text !== null) {
        game.recordEl = el('div', 'record');
        game.recordEl.appendChild(el('h3', null, 'The game as written'));
        columns.appendChild(game.recordEl);
      }
      article.appendChild(columns);
      section.appendChild(article);
      game.el = article;
    });
    main.appendChild(section);
    file.el = section;
  });

  // ---- Boards. ----
  var SOLID = { k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f' };
  var OUTLINE = { k: '\u2654', q: '\u2655', r: '\u2656', b: '\u2657', n: '\u2658', p: '\u2659' };
  // U+FE0E asks for the glyph as text, never as a colour emoji.
  var TEXT_STYLE = '\ufe0e';

  function squareXY(name, flip) {
    var file = name.charCodeAt(0) - 97;
    var rank = name.charCodeAt(1) - 49;
    if (!(file >= 0 && file < 8 && rank >= 0 && rank < 8)) return null;
    return flip ? [(7 - file) * 10, rank * 10] : [file * 10, (7 - rank) * 10];
  }

  function svgNode(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The position's board as SVG: squares, coordinates, marks, then pieces.
  function boardSvg(fen, marks) {
    var fields = fen.split(' ');
    var flip = fields[1] === 'b';
    var svg = svgNode('svg', { viewBox: '0 0 80 80', role: 'img' });
    svg.setAttribute('aria-label', 'position ' + fen);
    svg.dataset.orientation = flip ? 'black' : 'white';
    var squares = svgNode('g', {});
    for (var row = 0; row < 8; row++) {
      for (var col = 0; col < 8; col++) {
        var light = (row + col) % 2 === 0;
        squares.appendChild(svgNode('rect', {
          x: col * 10, y: row * 10, width: 10, height: 10, 'class': light ? 'light' : 'dark'
        }));
      }
    }
    svg.appendChild(squares);
    // Ranks down the left edge, files along the bottom, in the colour of the other square.
    for (var i = 0; i < 8; i++) {
      var rank = flip ? i + 1 : 8 - i;
      var file = String.fromCharCode(97 + (flip ? 7 - i : i));
      svg.appendChild(svgNode('text', { x: 0.5, y: i * 10 + 2.9, 'class': 'coord ' + (i % 2 === 0 ? 'on-light' : 'on-dark') }, String(rank)));
      svg.appendChild(svgNode('text', { x: i * 10 + 7.8, y: 79.4, 'class': 'coord ' + (i % 2 === 0 ? 'on-dark' : 'on-light') }, file));
    }
    marks = marks || {};
    var from = marks.from && squareXY(marks.from, flip);
    var to = marks.to && squareXY(marks.to, flip);
    if (from && to) {
      [from, to].forEach(function (xy) {
        svg.appendChild(svgNode('rect', { x: xy[0], y: xy[1], width: 10, height: 10, 'class': 'played' }));
      });
    } else if (to) {
      svg.appendChild(svgNode('rect', { x: to[0] + 0.6, y: to[1] + 0.6, width: 8.8, height: 8.8, 'class': 'target' }));
    }
    (marks.candidates || []).forEach(function (name) {
      var xy = squareXY(name, flip);
      if (xy) svg.appendChild(svgNode('circle', { cx: xy[0] + 5, cy: xy[1] + 5, r: 4.4, 'class': 'candidate' }));
    });
    var pieces = 0;
    var ranks = fields[0].split('/');
    for (var r = 0; r < 8 && r < ranks.length; r++) {
      var f = 0;
      for (var k = 0; k < ranks[r].length && f < 8; k++) {
        var c = ranks[r][k];
        if (c >= '1' && c <= '8') {
          f += c.charCodeAt(0) - 48;
          continue;
        }
        var role = c.toLowerCase();
        if (!SOLID[role]) continue;
        var xy = squareXY(String.fromCharCode(97 + f) + String(8 - r), flip);
        var at = { x: xy[0] + 5, y: xy[1] + 8.1, 'text-anchor': 'middle', 'class': 'piece' };
        var g = svgNode('g', { 'class': 'piece-' + c });
        if (c === role) {
          g.appendChild(svgNode('text', Object.assign({}, at, { 'class': 'piece black' }), SOLID[role] + TEXT_STYLE));
        } else {
          g.appendChild(svgNode('text', Object.assign({}, at, { 'class': 'piece white-fill' }), SOLID[role] + TEXT_STYLE));
          g.appendChild(svgNode('text', Object.assign({}, at, { 'class': 'piece white-line' }), OUTLINE[role] + TEXT_STYLE));
        }
        svg.appendChild(g);
        pieces++;
        f++;
      }
    }
    if (from && to) {
      var x1 = from[0] + 5, y1 = from[1] + 5, x2 = to[0] + 5, y2 = to[1] + 5;
      var len = Math.sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)) || 1;
      var ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      var tipX = x2 - ux * 1.5, tipY = y2 - uy * 1.5;
      var baseX = tipX - ux * 3.2, baseY = tipY - uy * 3.2;
      svg.appendChild(svgNode('line', { x1: x1, y1: y1, x2: baseX, y2: baseY, 'class': 'arrow' }));
      svg.appendChild(svgNode('polygon', {
        points: [tipX, tipY, baseX - uy * 2, baseY + ux * 2, baseX + uy * 2, baseY - ux * 2]
          .map(function (v) { return v.toFixed(2); }).join(' '),
        'class': 'arrowhead'
      }));
    }
    svg.dataset.pieces = pieces;
    return svg;
  }

  var boardsDrawn = 0;
  function drawBoard(f) {
    if (f.drawn || !f.boardEl) return;
    f.drawn = true;
    var figure = f.boardEl;
    figure.textContent = '';
    figure.appendChild(boardSvg(f.fen, f.marks));
    var caption = el('figcaption', null, f.fen.split(' ')[1] === 'b' ? 'Black to move (board turned)' : 'White to move');
    var m = f.marks || {};
    function key(kind, label) {
      caption.appendChild(el('span', 'key ' + kind));
      caption.appendChild(document.createTextNode(label));
    }
    if (m.from) key('move', 'move');
    else if (m.to) key('target', m.to);
    if (m.candidates && m.candidates.length > 0) key('candidate', f.code === 'ambiguous-move' ? 'matches' : 'candidates');
    figure.appendChild(caption);
    boardsDrawn++;
    body.dataset.boardsDrawn = boardsDrawn;
  }

  // ---- A game's text, with its findings' places marked. ----
  var textsDrawn = 0;
  function drawText(game) {
    if (game.textDrawn || !game.recordEl) return;
    game.textDrawn = true;
    var chars = Array.from(game.text.replace(/\s+$/, ''));
    var lineStarts = [0];
    chars.forEach(function (c, i) { if (c === '\n') lineStarts.push(i + 1); });
    var spans = [];
    game.findings.forEach(function (f) {
      var line = f.line - game.line;
      if (line < 0 || line >= lineStarts.length) return;
      var start = lineStarts[line] + f.column - 1;
      var lineEnd = line + 1 < lineStarts.length ? lineStarts[line + 1] - 1 : chars.length;
      if (start >= lineEnd) return;
      var end = start + 1;
      if (chars[start] === '[') {
        while (end < lineEnd && chars[end - 1] !== ']') end++;
      } else {
        while (end < lineEnd && !/[\s(){}\[\]]/.test(chars[end])) end++;
      }
      spans.push({ start: start, end: end, findings: [f] });
    });
    spans.sort(function (a, b) { return a.start - b.start; });
    var merged = [];
    spans.forEach(function (s) {
      var last = merged[merged.length - 1];
      if (last && s.start < last.end) {
        last.end = Math.max(last.end, s.end);
        last.findings = last.findings.concat(s.findings);
      } else {
        merged.push(s);
      }
    });
    var pre = el('pre');
    var at = 0;
    game.marks = [];
    merged.forEach(function (s) {
      pre.appendChild(document.createTextNode(chars.slice(at, s.start).join('')));
      var worst = SEVERITIES.filter(function (sev) {
        return s.findings.some(function (f) { return f.severity === sev; });
      })[0];
      var mark = el('mark', worst, chars.slice(s.start, s.end).join(''));
      mark.title = s.findings.map(function (f) { return f.code; }).join(', ');
      mark.addEventListener('click', function () {
        if (mark.classList.contains('off')) return;
        var f = s.findings.filter(function (f) { return !f.row.hidden; })[0] || s.findings[0];
        f.row.scrollIntoView({ block: 'center' });
        activate(f, false);
      });
      s.findings.forEach(function (f) { f.markEl = mark; });
      mark.findings_ = s.findings;
      game.marks.push(mark);
      pre.appendChild(mark);
      at = s.end;
    });
    pre.appendChild(document.createTextNode(chars.slice(at).join('')));
    game.recordEl.appendChild(pre);
    showMarks(game);
    if (game.truncated) game.recordEl.appendChild(el('div', 'cut', 'The game goes on: the report keeps its first lines only.'));
    var first = merged[0] && merged[0].findings[0].markEl;
    if (first) pre.scrollTop = Math.max(0, first.offsetTop - 60);
    textsDrawn++;
    body.dataset.textsDrawn = textsDrawn;
  }

  // A place is marked while one of its findings is shown.
  function showMarks(game) {
    (game.marks || []).forEach(function (mark) {
      mark.classList.toggle('off', !mark.findings_.some(function (f) { return !f.row.hidden; }));
    });
  }

  var active = null;
  function activate(f, scroll) {
    if (active) {
      active.row.classList.remove('active');
      if (active.markEl) active.markEl.classList.remove('active');
    }
    active = f;
    f.row.classList.add('active');
    drawText(f.game_);
    if (f.markEl) {
      f.markEl.classList.add('active');
      if (scroll) {
        f.markEl.parentNode.scrollTop = Math.max(0, f.markEl.offsetTop - 60);
      }
    }
  }

  // ---- Lazy drawing: what comes near the window is drawn, once. ----
  function drawAll() {
    findings.forEach(function (f) { if (!f.row.hidden) drawBoard(f); });
    files.forEach(function (file) {
      file.games.forEach(function (game) { if (!game.el.hidden) drawText(game); });
    });
  }
  if ('IntersectionObserver' in window) {
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        var target = entry.target;
        if (target.game_) drawText(target.game_);
        else drawBoard(findings[Number(target.dataset.finding)]);
        observer.unobserve(target);
      });
    }, { rootMargin: '600px 0px' });
    files.forEach(function (file) {
      file.games.forEach(function (game) {
        if (game.recordEl) {
          game.el.game_ = game;
          observer.observe(game.el);
        }
        game.findings.forEach(function (f) { if (f.boardEl) observer.observe(f.boardEl); });
      });
    });
  } else {
    drawAll();
  }
  window.addEventListener('beforeprint', drawAll);

  // ---- Filtering, kept in the address: #code=illegal-move,ambiguous-move&severity=error. ----
  function setHash(hash) {
    history.replaceState(null, '', hash ? '#' + hash : location.pathname + location.search);
  }

  function readHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ''));
    ['code', 'severity'].forEach(function (kind) {
      var wanted = params.has(kind) ? params.get(kind).split(',') : null;
      Object.keys(boxes[kind]).forEach(function (name) {
        boxes[kind][name].checked = wanted === null || wanted.indexOf(name) >= 0;
      });
    });
    apply();
    if (params.get('draw') === 'all') drawAll();
  }

  function changed() {
    var parts = [];
    ['code', 'severity'].forEach(function (kind) {
      var names = Object.keys(boxes[kind]);
      var on = names.filter(function (name) { return boxes[kind][name].checked; });
      if (on.length < names.length) parts.push(kind + '=' + on.join(','));
    });
    var params = new URLSearchParams(location.hash.replace(/^#/, ''));
    if (params.get('draw') === 'all') parts.push('draw=all');
    setHash(parts.join('&'));
    apply();
  }

  function apply() {
    Object.keys(boxes.severity).forEach(function (s) { severityOn[s] = boxes.severity[s].checked; });
    Object.keys(boxes.code).forEach(function (c) { codeOn[c] = boxes.code[c].checked; });
    var shown = 0;
    files.forEach(function (file) {
      var inFile = 0;
      file.games.forEach(function (game) {
        var inGame = 0;
        game.findings.forEach(function (f) {
          var on = codeOn[f.code] === true && severityOn[f.severity] === true;
          f.row.hidden = !on;
          if (on) inGame++;
        });
        game.el.hidden = inGame === 0;
        showMarks(game);
        inFile += inGame;
      });
      file.el.hidden = inFile === 0;
      file.countEl.textContent = plural(inFile, 'finding') + ' in ' +
        plural(file.games.filter(function (g) { return !g.el.hidden; }).length, 'game');
      shown += inFile;
    });
    status.textContent = shown === findings.length
      ? 'Showing all ' + plural(findings.length, 'finding') + '.'
      : 'Showing ' + shown.toLocaleString('en') + ' of ' + plural(findings.length, 'finding') + '.';
    body.dataset.findingsShown = shown;
    body.dataset.filter = location.hash.replace(/^#/, '');
  }

  body.dataset.findings = findings.length;
  body.dataset.positions = findings.filter(function (f) { return !!f.fen; }).length;
  body.dataset.boardsDrawn = 0;
  body.dataset.textsDrawn = 0;
  window.addEventListener('hashchange', readHash);
  readHash();
  // The load times that docs/performance.md states.
  body.dataset.readyMs = Math.round(performance.now());
  requestAnimationFrame(function () {
    setTimeout(function () { body.dataset.paintedMs = Math.round(performance.now()); }, 0);
  });
  body.dataset.state = 'ready';
})();
