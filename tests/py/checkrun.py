#!/usr/bin/python3
"""Run the unittest tests of a directory and end with one summary line in the
format of the Check framework, which tests/run-suite adds up:

    NN%: Checks: C, Failures: F, Errors: E

Skipped tests are not counted as checks; each prints a line
"SKIPPED: TEST: REASON" that tests/run-suite counts and judges.
Usage: checkrun.py DIR [PATTERN]
"""
import os
import sys
import unittest


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: checkrun.py DIR [PATTERN]")
    start = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else "test_*.py"
    suite = unittest.defaultTestLoader.discover(start, pattern=pattern,
                                                top_level_dir=start)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    for test, reason in result.skipped:
        print("SKIPPED: %s: %s" % (test.id(), reason.replace("\n", " ")))
    checks = result.testsRun - len(result.skipped)
    failures = len(result.failures) + len(result.unexpectedSuccesses)
    errors = len(result.errors)
    passed = checks - failures - errors
    percent = 100 * passed // checks if checks else 100
    print("%d%%: Checks: %d, Failures: %d, Errors: %d"
          % (percent, checks, failures, errors), flush=True)
    sys.exit(0 if failures == 0 and errors == 0 else 1)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
