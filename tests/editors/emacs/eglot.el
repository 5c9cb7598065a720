;;; eglot.el --- planilla lsp under Emacs's eglot, set up as docs/editors.md says  -*- lexical-binding: t -*-
;;
;; Run by scripts/test-editors when Emacs has eglot (Debian: emacs-nox and elpa-eglot):
;;   emacs --batch -Q -l tests/editors/emacs/eglot.el
;; with PLANILLA (the binary, also on PATH as `planilla'), ROOT (the repository) and WORK
;; (a scratch directory). The first ```elisp block of docs/editors.md is evaluated as
;; written; then, through eglot: the diagnostics of a file are check's (line and code,
;; one for one), a quick fix applied gives corpora/lsp/repair.quickfix.pgn, formatting
;; gives `planilla fix --repair', and "Convert this file to English" (a command, then
;; workspace/applyEdit) gives `planilla convert --to en'. The first failure exits 1.

(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'eglot)
(require 'cl-lib)
(require 'subr-x)

(defvar planilla (getenv "PLANILLA"))
(defvar root (getenv "ROOT"))
(defvar work (getenv "WORK"))
;; The server's workspace/applyEdit applied without asking (eglot asks by default).
(setq eglot-sync-connect 10 eglot-events-buffer-size 0 eglot-confirm-server-initiated-edits nil)

(defun fail (fmt &rest args)
  (princ (concat "FAIL: " (apply #'format fmt args) "\n") #'external-debugging-output)
  (kill-emacs 1))

(defun say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun file-text (path)
  (with-temp-buffer (insert-file-contents-literally path) (decode-coding-region (point-min) (point-max) 'utf-8) (buffer-string)))

(defun run (&rest args)
  "Standard output of the binary with ARGS."
  (with-temp-buffer
    (let* ((coding-system-for-read 'utf-8)
           (status (apply #'call-process planilla nil (list t nil) nil args)))
      (unless (memq status '(0 1)) (fail "planilla %S: status %s" args status))
      (buffer-string))))

(defun copy (rel)
  (let ((path (expand-file-name (file-name-nondirectory rel) work)))
    (copy-file (expand-file-name rel root) path t)
    path))

(defun wait-for (what pred)
  (let ((n 0))
    (while (and (< n 200) (not (funcall pred)))
      (accept-process-output nil 0.05)
      (when (bound-and-true-p flymake-mode) (flymake-start))
      (setq n (1+ n)))
    (unless (funcall pred) (fail "timed out waiting for %s" what))))

(defun same-text (want what)
  (unless (equal (buffer-string) want)
    (let ((a (expand-file-name "want.txt" work)) (b (expand-file-name "got.txt" work)))
      (with-temp-file a (insert want))
      (write-region nil nil b)
      (fail "%s: the buffer differs (- expected, + buffer):\n%s" what
            (with-temp-buffer (call-process "diff" nil t nil "-u" a b) (buffer-string))))))

(defun open-pgn (path)
  (find-file path)
  (unless (eq major-mode 'pgn-mode) (fail "%s: major mode %s, not pgn-mode" path major-mode))
  ;; eglot-ensure connects after the command that opened the file: run that hook.
  (run-hooks 'post-command-hook)
  (wait-for "eglot to manage the buffer" #'eglot-managed-p))

;; The set-up, as docs/editors.md writes it.
(let* ((doc (file-text (expand-file-name "docs/editors.md" root)))
       (start (or (string-match "```elisp\n" doc) (fail "no ```elisp block in docs/editors.md")))
       (body (match-end 0))
       (end (string-match "```" doc body)))
  (ignore start)
  (eval (car (read-from-string (concat "(progn " (substring doc body end) ")"))) t))

;; Diagnostics: check's findings, line and code, one for one.
(let* ((path (copy "corpora/check/repair.pgn"))
       (want (sort (cl-loop for line in (split-string (run "check" "--no-config" "--archive" "--format" "jsonl" path) "\n" t)
                            for f = (json-parse-string line :object-type 'plist)
                            when (equal (plist-get f :type) "finding")
                            collect (format "%d %s" (plist-get f :line) (plist-get f :code)))
                   #'string<)))
  (open-pgn path)
  (wait-for "the diagnostics" (lambda () (= (length (flymake-diagnostics)) (length want))))
  (let ((got (sort (cl-loop for d in (flymake-diagnostics)
                            collect (format "%d %s" (line-number-at-pos (flymake-diagnostic-beg d))
                                            (progn (string-match "\\[\\([a-z-]+\\)\\]" (flymake-diagnostic-text d))
                                                   (match-string 1 (flymake-diagnostic-text d)))))
                   #'string<)))
    (unless (equal got want) (fail "diagnostics %S, check: %S" got want)))
  (say "     %-40s %d diagnostics = check's (line, code)" "repair.pgn" (length want))

  ;; The quick fix on 3. Nb5, chosen and applied by eglot.
  (goto-char (point-min))
  (search-forward "3. Nb5")
  (let ((beg (- (point) 3)))
    (eglot-code-actions beg (point) "quickfix" t))
  (same-text (file-text (expand-file-name "corpora/lsp/repair.quickfix.pgn" root)) "the quick fix on 3. Nb5")
  (say "     %-40s = corpora/lsp/repair.quickfix.pgn" "quick fix 'Nb5' → 'Bb5'")

  ;; Formatting: fix --repair's text of the buffer as it is now.
  (let ((now (expand-file-name "now.pgn" work)))
    (write-region nil nil now)
    (let ((want (run "fix" "--repair" "--no-config" now)))
      (when (equal want (buffer-string)) (fail "fix changes nothing: nothing to check"))
      (eglot-format-buffer)
      (same-text want "eglot-format-buffer")))
  (say "     %-40s = planilla fix --repair" "eglot-format-buffer"))

;; "Convert this file to English": a command, executed; the server's workspace/applyEdit.
(let* ((path (copy "corpora/fix/spanish.pgn"))
       (want (run "convert" "--to" "en" path)))
  (open-pgn path)
  (let* ((actions (eglot-code-actions (point-min) (point-min) "source.convert"))
         (action (cl-find "Convert this file to English (planilla convert)" actions
                          :key (lambda (a) (plist-get a :title)) :test #'equal))
         (before (buffer-chars-modified-tick)))
    (unless action (fail "no 'Convert this file to English' among %S" (mapcar (lambda (a) (plist-get a :title)) actions)))
    (eglot--read-execute-code-action (list action) (eglot-current-server) "source.convert")
    (wait-for "the workspace edit" (lambda () (/= before (buffer-chars-modified-tick))))
    (same-text want "Convert this file to English"))
  (say "     %-40s = planilla convert --to en" "Convert this file to English"))

(eglot-shutdown (eglot-current-server))
(say "ok   eglot (Emacs %s, eglot %s): docs/editors.md's set-up, diagnostics, a quick fix, formatting, convert"
     emacs-version
     (or (ignore-errors (package-version-join (package-desc-version (cadr (assq 'eglot package-alist)))))
         "built in"))
(kill-emacs 0)
