"""The reliability and security harness (issue 28): ``python -m harness --help``.

Each part tries the companion as a clumsy table or an attacker would, and prints its figures as
JSON lines. Short modes run inside ./scripts/test (tests/test_harness.py); long modes are the
figures in docs/reliability.md.
"""
