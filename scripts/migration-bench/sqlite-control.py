#!/usr/bin/env python3
"""The link stage's writes with nothing but SQLite: a Z_PK-ordered walk that sets a to-one column
with an index (1 000 distinct targets, round robin), committed every BATCH rows, in WAL mode. It
tells which part of scripts/bench-migrations.sh's link figures is SQLite's own cost.
Usage: scripts/migration-bench/sqlite-control.py ROWS [BATCH]"""
import os
import sqlite3
import sys
import tempfile
import time

rows = int(sys.argv[1])
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 500
folder = tempfile.mkdtemp()
database = sqlite3.connect(os.path.join(folder, "control.store"), isolation_level=None)
database.execute("PRAGMA journal_mode = WAL")
database.execute("CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER, ZISBN VARCHAR, ZAUTHOR INTEGER)")
database.execute("BEGIN")
database.executemany("INSERT INTO ZBOOK VALUES (?, 1, ?, NULL)", ((key, str(key)) for key in range(1, rows + 1)))
database.execute("COMMIT")
database.execute("CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)")
start = time.time()
for first in range(1, rows + 1, batch):
    database.execute("BEGIN")
    database.executemany(
        "UPDATE ZBOOK SET Z_OPT = Z_OPT + 1, ZAUTHOR = ? WHERE Z_PK = ?",
        ((key % 1000 + 1, key) for key in range(first, min(first + batch, rows + 1))))
    database.execute("COMMIT")
print(f"{rows} rows, batch {batch}: {time.time() - start:.3f} s")
