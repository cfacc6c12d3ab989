package main

const judgeHelp = `usage: tribunal-session judge --answer FILE|- [--question TEXT|@FILE] [flags]
       tribunal-session judge --cases FILE|- [--jobs N] [flags]
       tribunal-session judge --candidates FILE FILE… [--strategy S] [flags]

Judges an answer — any LLM output, free text or JSON — instead of a code
change: the same rubric, jury, meta-judge, gate, severity policy, trust
gate and signed ledger as a review, with deterministic checks beside the
jury (the expected answer, the rubric's must_include and must_avoid, a
JSON answer's schema, latency and cost budgets). Each failing check blocks
the gate, as a required evaluator does. The answer is recorded (kind
answer: log, show, view). The rubric is the built-in "answer" rubric
(correctness, groundedness, clarity) unless --rubric names another.

  --answer FILE          the answer ("-": stdin); an empty or binary one,
                         or one over a task's per-file bound (50 MiB unless
                         configured), is refused
  --question TEXT        the question it answers; @FILE reads it from FILE
  --task TEXT            the same as --question
  --expected FILE        the expected answer (needs a question)
  --match MODE           how to compare with it: semantic (default; the
                         jury decides), exact, icase, normalised (white
                         space runs are one space, case folded)
  --context FILE         what the answer may rely on (repeatable): the
                         judges score groundedness against it
  --criterion TEXT       a requirement of your own the judges hold the
                         answer to, beside the rubric (repeatable)
  --format text|json     the answer's format (default text)
  --schema FILE          a JSON Schema the JSON answer must satisfy
                         (implies --format json)
  --rubric ID            the rubric to judge by (default answer)
  --profile NAME         light, standard or thorough (see docs/profiles.md)
  --quorum Q             the gate's quorum: majority, any, unanimous or
                         at_least_N (default: the rubric's or
                         tribunal.session.gate_policy)
  --latency-ms N         the answering model's latency, as you measured it
  --cost-usd N           its cost
  --max-latency-ms N     the latency budget: a reported latency over it fails
  --max-cost-usd N       the cost budget
  --json                 print the verdict as JSON
  --signed-out FILE      also write a signed verdict file (verdict verify)
  --key FILE             sign it with this key (keygen --out writes one)
                         instead of the ledger's
  --budget-usd N         stop before a judge call past $N (per answer)
  --cases FILE           a batch: one JSON object a line, {"id", "question",
                         "answer", "expected", "context", "latency_ms",
                         "cost_usd"} (id, expected, context and the figures
                         optional); one verdict JSON a line on stdout, in
                         input order; progress on stderr
  --jobs N               with --cases: answers judged at once (default 1)
  --candidates FILE…     2 to 5 answers to one question, each judged as
                         --answer judges one, then by --strategy
  --strategy S           best (default): the accepted candidates compared
                         pairwise, both orders, the winner printed; rank:
                         every candidate in order; merge: one answer
                         written from the accepted ones and judged (fewer
                         than 2 accepted: best)
  --session-id ID        the host session id recorded in events

Exit status: 0 accepted (a batch: every answer); 10 rejected (a batch: one
or more, and every other accepted); 3 no usable verdict (every judge
failed, or stopped; a batch: any); 2 usage error or refused input
(nothing is recorded).
`

const verdictHelp = `usage: tribunal-session verdict verify FILE --allowed-signers FILE

Checks a signed verdict file (judge --signed-out) offline: its Ed25519
signature over the file's canonical JSON, its signer against the
allowed-signers file receipts use (lines '<principal> ssh-ed25519 <key>';
tribunal-session receipt --public-key prints yours), and its verdict.

Exit status:
  0   valid: signed by an allowed signer, and the verdict passed
  31  the verdict did not pass
  33  the signer is not in the allowed-signers file
  34  the signature is bad: the file was edited or truncated
  2   usage error; the allowed-signers file is missing or malformed
`
