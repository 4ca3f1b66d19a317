#!/usr/bin/env python3
"""The link stage's writes with nothing but SQLite: a Z_PK-ordered walk that sets a to-one column
with an index (1 000 distinct targets, round robin), committed every BATCH rows, in WAL mode. It
tells which part of scripts/bench-migrations.sh's link figures is SQLite's own cost.
Usage: scripts/migration-bench/sqlite-control.py ROWS [BATCH] [--no-index] [--cache-size N]
(--no-index: the same writes without the to-one's index; --cache-size: SQLite's cache_size pragma,
pages when positive, KiB when negative; SQLite's default is -2000)"""
import os
import sqlite3
import sys
import tempfile
import time

arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
rows = int(arguments[0])
batch = int(arguments[1]) if len(arguments) > 1 else 500
indexed = "--no-index" not in sys.argv
cache = sys.argv[sys.argv.index("--cache-size") + 1] if "--cache-size" in sys.argv else None
folder = tempfile.mkdtemp()
database = sqlite3.connect(os.path.join(folder, "control.store"), isolation_level=None)
database.execute("PRAGMA journal_mode = WAL")
if cache is not None:
    database.execute(f"PRAGMA cache_size = {int(cache)}")
database.execute("CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER, ZISBN VARCHAR, ZAUTHOR INTEGER)")
database.execute("BEGIN")
database.executemany("INSERT INTO ZBOOK VALUES (?, 1, ?, NULL)", ((key, str(key)) for key in range(1, rows + 1)))
database.execute("COMMIT")
if indexed:
    database.execute("CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)")
start = time.time()
for first in range(1, rows + 1, batch):
    database.execute("BEGIN")
    database.executemany(
        "UPDATE ZBOOK SET Z_OPT = Z_OPT + 1, ZAUTHOR = ? WHERE Z_PK = ?",
        ((key % 1000 + 1, key) for key in range(first, min(first + batch, rows + 1))))
    database.execute("COMMIT")
print(f"{rows} rows, batch {batch}{'' if indexed else ', no index'}"
      f"{'' if cache is None else f', cache_size {cache}'}: {time.time() - start:.3f} s")
