package main

// Each command's usage, printed by "tribunal-session COMMAND -h" (and
// "help COMMAND") on stdout with exit status 0. The history commands keep
// theirs next to their code in history.go.

const exitText = `Exit status:
  0   accepted (run, wait); success (other commands)
  10  not accepted: the gate never passed (exhausted_iterations);
      review: rejected (with --fail-on: a finding at or above it);
      judge: the answer (a batch: one or more) was rejected
      tune: hold (no candidate passed the held-out gate)
  11  tune: need-more-data (too few cases, too much noise, or too wide an interval)
  12  tune: invalid (too few valid held-out pairs, or unpaired evidence)
  1   replay: a recorded decision would differ under the current rules;
      rejudge: a gate decision flipped under the current configuration;
      apply: the change conflicts with your edits (nothing was changed)
  2   usage or configuration error (nothing ran); unknown id;
      config --check: a layer or rubric has an error
  3   aborted: the actor failed twice, no judge produced a usable verdict
      (review: not a judgement of the code; judge: of the answer), a signal, the budget, or another error;
      show/replay/view: a record was damaged (what could be read was printed);
      calibrate/rejudge: interrupted, or nothing could be judged
  20  verify: the ledger's hash chain is broken
  21  verify: a signature does not verify
  22  verify: the ledger is not signed by the expected key
  30  verify-receipt: a commit has no receipt (receipt: no commit got one)
  31  verify-receipt, verdict verify: the verdict did not pass
  32  verify-receipt: tree mismatch (the commit's tree is not the one judged)
  33  verify-receipt, verdict verify: the signer is not in the allowed-signers file
  34  verify-receipt, verdict verify: a signature is bad (edited or truncated)
  40  export: the collector did not take every span (nothing is lost)
  75  wait: the run is still going; call wait again
`

const (
	runHelp = `usage: tribunal-session run [flags] <task>
       tribunal-session run [flags] --task-file FILE   (FILE "-" reads stdin)

Runs the task through Actor → Jury → Meta-Judge → Gate in the git
repository of the current directory. Progress goes to stderr; the summary
(or, with --json, the report) to stdout.

The actor works in a git worktree of its own, its commits held by the ref
refs/tribunal/tasks/<task id> (not a branch: 'git branch' and 'git push
--all' leave it alone), started from your HEAD plus your uncommitted
changes (tracked and untracked, not ignored). Untracked files that look
like secrets (.env, private keys, credential files, and the patterns of
tribunal.secret_files) are left out, and a line names them. Your working
tree, index and branches are not touched while the task runs; an accepted
change is then applied to your working tree as uncommitted changes. A
change that is not accepted, or that conflicts with edits you made
meanwhile, is kept on its ref: see 'apply' and 'discard'.

Flags may come before or after the task; "--" ends them, so
'run -- --weird task' runs the task "--weird task". A --rubric=ID token
inside the task text selects the rubric as --rubric ID does.

  --rubric ID            the rubric to judge by (see 'tribunal-session rubrics')
  --profile NAME         light, standard or thorough: a bundle of settings
                         under your own (default tribunal.profile, standard;
                         see docs/profiles.md)
  --max-iterations N     at most N actor passes (N >= 1; default from the rubric
                         or tribunal.session.max_iterations)
  --budget-usd N         the task's cost cap in dollars for this run (default
                         tribunal.session.budget_usd, $5; the summary states it)
  --quorum Q             the gate's quorum for this run: majority, any,
                         unanimous or at_least_N (default: the rubric's or
                         tribunal.session.gate_policy)
  --json                 print the report as JSON
  --detach               start in the background, print the task id; follow
                         it with 'tribunal-session wait'
  --task-file FILE       read the task from FILE ("-": stdin)
  --session-id ID        the host session id recorded in events
  --in-place             let the actor edit your working tree directly (no
                         task worktree; the judges then see the whole tree's
                         diff stat, your own edits included)
  --dry-run              run nothing: print the profile, the panel, the calls
                         an iteration makes (and at most), and a cost estimate
                         from the mean recorded cost of calls of the same role
                         and model in this project's newest 50 tasks, else
                         from a price table per model (--json too)
  --candidates N         best of N (1-5): N candidates run the task in
                         parallel, each in its own worktree with the usual
                         jury; the finalists are compared pairwise in both
                         orders and only the winner's change is applied (the
                         others stay kept); costs about N runs

Exit status: 0 accepted (also when the accepted change overlaps edits you
made meanwhile: it is then kept on its ref, and the summary and a
warning say so); 10 not accepted (the gate never passed);
2 usage or configuration error (nothing ran; with --detach too, before
anything starts); 3 aborted (also when no judge produced a usable verdict).
`
	applyHelp = `usage: tribunal-session apply TASK_ID

Applies a kept task's change (its ref refs/tribunal/tasks/TASK_ID relative
to the snapshot the task started from) to the working tree of the current
directory as uncommitted changes, merged three-way with whatever you
changed since. All or nothing:
when the change conflicts with your edits nothing is written. On success
the ref is deleted. A task kept by earlier tribunal versions on the branch
tribunal/TASK_ID is moved to the ref first, with a line saying so.

Exit status: 0 applied (or nothing to apply); 1 the change conflicts with
your edits (nothing was changed; the files are named); 2 usage error,
unknown task, or the task is still running; 3 git failed.
`
	discardHelp = `usage: tribunal-session discard TASK_ID

Drops a kept task: deletes its ref refs/tribunal/tasks/TASK_ID (or the
branch tribunal/TASK_ID of earlier tribunal versions) and its record. Your
working tree is not touched; the task's artifacts and diffs stay on record.

Exit status: 0 discarded; 2 usage error, unknown task, or still running;
3 git failed.
`
	waitHelp = `usage: tribunal-session wait TASK_ID|last [--timeout 9m]

Waits for a run started with 'run --detach', streaming its progress to
stderr, then prints its summary and exits with the run's own status. Each
wait prints only the progress the previous one did not show. "last" names
the newest run; any unambiguous prefix of a task id works.

  --timeout D   how long to wait (a Go duration, default 9m)

Exit status: the run's (0, 10, 2, 3); 75 the run is still going when the
timeout ends (call wait again); 2 unknown task id.
`
	cancelHelp = `usage: tribunal-session cancel TASK_ID|last

Asks a detached run to stop; it records itself as aborted. "last" names
the newest run; any unambiguous prefix of a task id works.

The run is signalled only while its recorded pid still names the process
that started then (pid and start time), never a process that reused it.

Exit status: 0 asked to stop, or already finished; 3 not running, or not
provably the run any more (not signalled); 2 usage error or unknown task id.
`
	decideHelp = `usage: tribunal-session decide < input.json

The aggregate and the gate as one pure command: reads one JSON object on
stdin, writes the decision as JSON on stdout. Input keys: policy, verdicts,
rubric, aggregation_method, score_threshold, dissent_threshold,
min_criterion_coverage, meta, aggregated_score, disagreement
(docs/spec.md, "decide").

  echo '{"policy":"majority","verdicts":[{"score":0.8,"passed":true}]}' | tribunal-session decide

Exit status: 0 decided (pass or fail is in the output); 2 invalid input.
`
	rubricsHelp = `usage: tribunal-session rubrics [--json]

Lists the rubrics in effect in the current directory: the built-ins, then
the overlays ~/.onlooker/tribunal.{json,toml} and
<repo>/.claude/tribunal.{json,toml}, a later rubric replacing an earlier
one with the same id. Each line names the rubric, where it comes from, its
criteria, and whether it is valid (with the reason when it is not).

Exit status: 0 listed (also when a rubric is invalid); 2 usage error.
`
	doctorHelp = `usage: tribunal-session doctor

Checks, on one screen, what tribunal needs in the current directory: the
claude CLI (found as a run finds it: TRIBUNAL_CLAUDE_BIN, the user's
tribunal.claude.path, then PATH) and its version; whether Claude Code has
the plugin installed and enabled (enabledPlugins in ~/.claude/settings.json
and the repository's .claude/settings*.json); whether the plugin's
hooks.json registers each hook and whether the settings turn them on;
every settings layer and rubric (the checks of config --check); whether the
store ($ONLOOKER_DIR/tribunal) is writable; each configured provider's CLI
or key; and where the binaries are. No model is called.

Each line starts with ok, problem or hint; exit 2 when there is a problem.
`
	configHelp = `usage: tribunal-session config [--check] [--json]

Lists the configuration layers for the current directory, each over the
ones before it — the built-in defaults, the plugin's config.json,
~/.claude/settings.json, ~/.claude/settings.local.json, then the
repository's .claude/settings.json and .claude/settings.local.json — and
prints every effective tribunal setting with the file its value comes from.

  --check   instead validate every layer, the session parameters and every
            rubric; print each problem and exit 2 if there is one
  --json    print {layers: [{path, present}], settings: [{key, value,
            source}], problems}

Exit status: 0 printed (and with --check: no problems); 2 --check found a
problem, or a usage error.
`
	verifyHelp = `usage: tribunal-session verify [--ledger PATH] [--expect-key SHA256:…]

Checks the signed verdict ledger's hash chain and every signature, and
lists the keys that signed it with their fingerprints. Without --ledger it
checks the ledger of the repository of the current directory.

  --expect-key FP   a key's fingerprint as verify lists it (or the public
                    key): the ledger must have been signed by that key;
                    without it,
                    tribunal.trust.ledger_key from your own settings
                    applies, and with neither verify warns that a ledger
                    re-signed wholesale with another key would pass too

Exit status: 0 the ledger verifies; 20 the hash chain is broken; 21 a
signature does not verify; 22 the ledger is not signed by the expected key;
2 usage error or no ledger.
`
	keygenHelp = `usage: tribunal-session keygen [--out FILE]

Creates a new ledger signing key in $ONLOOKER_DIR/keys and keeps the old
one (entries it signed still verify by the public key they carry). Prints
the new key's fingerprint: keep it outside $ONLOOKER_DIR and pass it to
verify --expect-key, or set it as tribunal.trust.ledger_key in
~/.claude/settings.json.

  --out FILE   write a new Ed25519 key to FILE instead (mode 0600, PEM
               PKCS #8), never over an existing file, and print its public
               key; the ledger's key is not touched

Exit status: 0 created; 3 the key could not be written; 2 usage error or
FILE exists.
`
	receiptHelp = `usage: tribunal-session receipt [--dry-run] <commit|range>
       tribunal-session receipt --public-key [--principal NAME]

Signs a receipt for each commit that carries the work of a recorded,
accepted /tribunal task and attaches it as a git note under
refs/notes/tribunal (tribunal.receipts.notes_ref in your own settings
names another). A commit carries a task's work when its tree is the tree
the task produced, or when its own change (from its one parent) has the
same git patch-id as the task's judged change. The receipt is signed
with the ledger's key; other people's receipts on the same commit are
kept beside yours. A range is anything git rev-list reads (main..HEAD).

  --dry-run      say which commits would get a receipt, write nothing
  --public-key   print your allowed-signers line, to add to
                 .tribunal/allowed_signers in the repository
  --principal    the name on that line (default: git's user.email)

Share receipts with 'git push origin refs/notes/tribunal'; keep them on
rebase and amend with 'git config notes.rewriteRef refs/notes/tribunal'.

Exit status: 0 written; 30 no commit of the range carries a recorded
accepted task; 2 usage error; 3 git or the key failed.
`
	verifyReceiptHelp = `usage: tribunal-session verify-receipt [--allowed-signers FILE] <commit|range>

Checks the receipts in refs/notes/tribunal of a commit or of each commit of
a range against the allowed-signers file (.tribunal/allowed_signers in the
repository unless FILE is given; lines '<principal> ssh-ed25519 <key>').
A commit is valid when one of its receipts is signed correctly by an
allowed signer, vouches for the commit's tree, and records a verdict that
passed. In CI, read the file from the branch you merge into, not from the
change under review: git show origin/main:.tribunal/allowed_signers.

Exit status (a range exits with its worst commit's):
  0   every commit has a valid receipt
  30  a commit has no receipt
  31  a receipt's verdict did not pass
  32  tree mismatch: the receipt vouches for another tree
  33  the signer is not in the allowed-signers file
  34  a receipt's signature is bad: the note was edited or truncated
  2   usage error; the allowed-signers file is missing or has a malformed
      line (named as FILE:LINE)
`
	versionHelp = `usage: tribunal-session version   (or --version)

Prints the version, which is the plugin's version.
`
	helpHelp = `usage: tribunal-session help [COMMAND]

Prints the list of commands, or one command's usage (as COMMAND -h does).
`
)

const reviewHelp = `usage: tribunal-session review --base REF [--head REF] [flags]
       tribunal-session review --staged [flags]
       tribunal-session review --worktree [flags]
       tribunal-session review --diff FILE|- [--base REF] [flags]

Judges an existing change with no actor: the same rubric, jury,
meta-judge, gate, command judges, severity policy and trust gate as an
iteration of 'run', once. The change is the merge-base diff of REF and
--head (HEAD when not given) as a pull request shows it, the staged
changes (for a pre-commit hook), or a unified diff as git prints it
(applied on --base, HEAD when not given). Judges and command judges work
in a checkout of the head state: the current work tree when it is that
state (a CI checkout of the head), else a worktree made for the review
and removed after. The review is recorded (kind review: log, show, view,
replay), its events emitted and its gate decision signed into the ledger.

An empty change, or one of binary files only, is "nothing to review"
(exit 0, no verdict written).

  --base REF             the branch the change goes into (merge base taken)
  --head REF             the change's head (default HEAD)
  --staged               the index against HEAD
  --worktree             the uncommitted change: tracked files against HEAD
                         and the untracked files git does not ignore
  --diff FILE            a unified diff ("-": stdin)
  --task TEXT            what the change is meant to do (a PR's title and body)
  --task-file FILE       the same, read from FILE ("-": stdin)
  --rubric ID            the rubric to judge by
  --profile NAME         light, standard or thorough (see docs/profiles.md)
  --json                 print the review as JSON (same as --format json)
  --format FORMAT        stdout's format: text (default), json, md, sarif,
                         codequality
  --output FORMAT=FILE   also write FORMAT to FILE; repeatable: one model
                         spend feeds every format
  --gate                 in CI, exit with the verdict (default there: advisory)
  --fail-on SEVERITY     block only on a finding at or above SEVERITY
                         (info < low < minor < moderate < major < critical < blocker)
  --budget-usd N         stop before a call that would take the review past $N
  --quorum Q             the gate's quorum: majority, any, unanimous or
                         at_least_N (default: the rubric's or
                         tribunal.session.gate_policy)
  --max-diff-bytes N     bound on the diff shown to the judges (default 48000);
                         what it leaves out is said
  --cache-dir DIR        where verdicts are reused from (default: the store's
                         review-cache); keep it between CI runs
  --no-cache             judge even when a verdict is cached
  --dismissed FILE       fingerprints of dismissed findings (default:
                         .tribunal/dismissed in the head state)
  --repo-url URL         the repository's web URL, for the md links
                         (default: GITHUB_SERVER_URL/GITHUB_REPOSITORY)
  --session-id ID        the host session id recorded in events

Exit status: 0 accepted, or advisory (CI set, no --gate: the verdict is
written, the exit is 0); 10 not accepted (with --fail-on: a finding at or
above it); 2 usage error, unknown ref, a diff that does not parse; 3 every
judge failed (not a judgement of the code) or the review was stopped.
`
