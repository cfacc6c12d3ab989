#!/usr/bin/env python3
"""Run one QuixBugs program over QuixBugs' own tests, with no pytest.

usage: run_tests.py PROGRAM_FILE NAME TESTS_DIR

TESTS_DIR holds upstream's python_testcases/ and json_testcases/ unchanged.
PROGRAM_FILE is imported as python_programs.NAME, the module upstream's
tests import when pytest runs without --correct, so the same tests judge
a buggy and a fixed program alike.

Upstream's tests use five things from pytest: use_correct, run_slow,
mark.parametrize, skip and approx. A small stand-in provides them with
the settings of upstream's default run: the python_programs module, slow
tests skipped (knapsack's four-minute case); the tests' own skips
(levenshtein's long case) are honoured. Each test gets TIMEOUT seconds of
CPU time: upstream's CI gives each 20 s of wall-clock time with
pytest-timeout, but a label must not depend on how busy the machine is,
and CPU time does not (the slowest fixed program's slowest test takes
about 2 s of it). Memory is capped so a runaway program fails instead of
swapping.

The run stops at the first failing test: a label needs only "all pass" or
"one fails". It prints one JSON object, {"program", "passed", "skipped":
[{"test", "why"}], "failed": {"test", "why"} or null}, and exits 0 when
every test that ran passed, 1 when one failed, 2 when it could not run.
"""

import contextlib
import importlib
import io
import json
import os
import resource
import shutil
import signal
import sys
import tempfile
import types

TIMEOUT = 10  # CPU seconds per test (see above)
MEMORY = 2 << 30  # bytes of address space


class Skipped(Exception):
    pass


class TimedOut(Exception):
    pass


class Approx:
    """pytest.approx for one number: abs alone means |a - e| <= abs."""

    def __init__(self, expected, rel=None, abs=None):
        self.expected = expected
        if rel is None and abs is None:
            rel, abs = 1e-6, 1e-12
        self.rel, self.abs = rel, abs

    def __eq__(self, actual):
        diff = actual - self.expected
        if diff < 0:
            diff = -diff
        if self.abs is not None and diff <= self.abs:
            return True
        return self.rel is not None and diff <= self.rel * (self.expected if self.expected > 0 else -self.expected)

    def __repr__(self):
        return "approx(%r, rel=%r, abs=%r)" % (self.expected, self.rel, self.abs)


def stand_in():
    pytest = types.ModuleType("pytest")
    pytest.use_correct = False
    pytest.run_slow = False

    def skip(why=""):
        raise Skipped(why)

    def parametrize(names, values):
        def mark(fn):
            fn.params = ([n.strip() for n in names.split(",")], list(values))
            return fn

        return mark

    pytest.skip = skip
    pytest.approx = Approx
    pytest.mark = types.SimpleNamespace(parametrize=parametrize)
    return pytest


def collect(module):
    """The module's tests in definition order, one per parameter set."""
    for name, fn in list(vars(module).items()):
        if not name.startswith("test") or not callable(fn):
            continue
        params = getattr(fn, "params", None)
        if params is None:
            yield name, fn, {}
            continue
        names, values = params
        for i, v in enumerate(values):
            args = dict(zip(names, v if len(names) > 1 else [v]))
            yield "%s[%d]" % (name, i), fn, args


def describe(exc):
    text = "%s: %s" % (type(exc).__name__, exc)
    return text if len(text) <= 300 else text[:297] + "..."


def run(program_file, name, tests_dir):
    result = {"program": name, "passed": 0, "skipped": [], "failed": None}
    work = tempfile.mkdtemp(prefix="quixbugs-")
    try:
        os.mkdir(os.path.join(work, "python_programs"))
        shutil.copyfile(program_file, os.path.join(work, "python_programs", name + ".py"))
        sys.path[:0] = [os.path.join(tests_dir, "python_testcases"), work]
        sys.modules["pytest"] = stand_in()
        sink = io.StringIO()
        try:
            with contextlib.redirect_stdout(sink):
                module = importlib.import_module("test_" + name)
        except Exception as exc:  # the program does not even import
            result["failed"] = {"test": "import", "why": describe(exc)}
            return result
        for test, fn, args in collect(module):
            signal.setitimer(signal.ITIMER_VIRTUAL, TIMEOUT)
            try:
                with contextlib.redirect_stdout(sink):
                    fn(**args)
            except Skipped as why:
                result["skipped"].append({"test": test, "why": str(why)})
                continue
            except TimedOut:
                result["failed"] = {"test": test, "why": "no result within %d s of CPU time" % TIMEOUT}
                return result
            except BaseException as exc:  # AssertionError, RecursionError, MemoryError...
                if isinstance(exc, KeyboardInterrupt):
                    raise
                result["failed"] = {"test": test, "why": describe(exc)}
                return result
            finally:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            result["passed"] += 1
            sink.seek(0)
            sink.truncate()
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: run_tests.py PROGRAM_FILE NAME TESTS_DIR\n")
        return 2

    def alarm(signum, frame):
        raise TimedOut()

    signal.signal(signal.SIGVTALRM, alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > MEMORY:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, hard))
    result = run(argv[1], argv[2], argv[3])
    sys.stdout.write(json.dumps(result, sort_keys=True) + "\n")
    if result["passed"] == 0 and result["failed"] is None:
        sys.stderr.write("run_tests.py: no test of %s ran\n" % argv[2])
        return 2
    return 1 if result["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
