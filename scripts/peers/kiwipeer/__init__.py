"""kiwisolver as an independent peer for LayoutBench's solvers; run it as scripts/peers/kiwi-peer.

- constraints_format: the `.constraints` tokenizer and parser, System and Statement, parse errors
- kiwi_solving: the priority -> strength map, solving with kiwisolver, unsatisfiable explanations
- solutions: outcomes, NAME = VALUE solutions, error vectors, comparing two solutions, verdicts
- markdown_table: the tables that `compare` and `crosscheck` print
- crosscheck: running solver commands with their budgets, the crosscheck table's rows
- cli: the command line (`solve`, `compare`, `crosscheck`), its exit statuses, and main
"""
