"""Coverage-guided fuzzing of the frame reader, the message decoder and the
delta applier with atheris (libFuzzer for Python). The targets and their
invariants are in fuzz_targets.py; fuzz/README.md has the commands:

    .venv/bin/python fuzz/fuzz_decode.py --seeds fuzz/corpus
    .venv/bin/python fuzz/fuzz_decode.py fuzz/corpus -dict=fuzz/protocol.dict \\
        -max_total_time=600 -print_final_stats=1

A crash stops the run and leaves the input in ``crash-<sha1>``; replay it with
``.venv/bin/python fuzz/replay.py crash-<sha1>``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["protocol", "fuzz_targets"]):
    import fuzz_targets


def write_seeds(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for index, data in enumerate(fuzz_targets.seeds()):
        (folder / f"seed-{index:02d}").write_bytes(data)
    print(f"wrote {len(fuzz_targets.seeds())} seeds to {folder}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        write_seeds(Path(sys.argv[2]))
        return
    for data in fuzz_targets.seeds():  # the seeds themselves must pass before fuzzing starts
        fuzz_targets.test_one_input(data)
    atheris.Setup(sys.argv, fuzz_targets.test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
