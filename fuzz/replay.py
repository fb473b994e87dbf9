"""Replay fuzz inputs through the targets, without atheris, and report line coverage.

    .venv/bin/python fuzz/replay.py fuzz/corpus            # a corpus folder
    .venv/bin/python fuzz/replay.py crash-0123abcd          # one crashing input

Every input must pass (a crash prints its traceback and the exit code is 1).
Coverage is measured with a plain ``sys.settrace`` line tracer over the
``protocol/`` package, so no coverage tool has to be installed; a line counts
as executable when the compiled code names it.
"""

from __future__ import annotations

import sys
import traceback
import types
from pathlib import Path
from typing import Any

import fuzz_targets

ROOT = Path(__file__).resolve().parent.parent / "protocol"


def executable_lines(path: Path) -> set[int]:
    lines: set[int] = set()
    todo = [compile(path.read_text(), str(path), "exec")]
    while todo:
        code = todo.pop()
        lines.update(line for _, _, line in code.co_lines() if line is not None)
        todo.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return lines


def main(paths: list[str]) -> int:
    files = [p for arg in paths
             for p in (sorted(Path(arg).iterdir()) if Path(arg).is_dir() else [Path(arg)])]
    hit: dict[str, set[int]] = {}

    def tracer(frame: types.FrameType, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        if not name.startswith(str(ROOT)):
            return None
        hit.setdefault(name, set()).add(frame.f_lineno)

        def local(frame: types.FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                hit.setdefault(frame.f_code.co_filename, set()).add(frame.f_lineno)
            return local

        return local

    crashes = 0
    sys.settrace(tracer)
    try:
        for path in files:
            try:
                fuzz_targets.test_one_input(path.read_bytes())
            except Exception:
                crashes += 1
                print(f"CRASH {path}", file=sys.stderr)
                traceback.print_exc()
    finally:
        sys.settrace(None)
    print(f"{len(files)} inputs replayed, {crashes} crashes")
    total_hit = total_lines = 0
    for source in sorted(ROOT.glob("*.py")):
        lines = executable_lines(source)
        # lines run at import time (defs, imports) were run before tracing began
        import_time = _module_level_lines(source)
        lines -= import_time
        got = hit.get(str(source), set()) & lines
        total_hit, total_lines = total_hit + len(got), total_lines + len(lines)
        if lines:
            print(f"  {source.name:<12} {len(got):>4}/{len(lines):<4} lines "
                  f"({100 * len(got) / len(lines):.0f}%) of function bodies")
    if total_lines:
        print(f"  {'protocol/':<12} {total_hit:>4}/{total_lines:<4} lines "
              f"({100 * total_hit / total_lines:.0f}%)")
    return 1 if crashes else 0


def _module_level_lines(path: Path) -> set[int]:
    """Lines of the module's own code object and of class bodies (run at import)."""
    module = compile(path.read_text(), str(path), "exec")
    lines = {line for _, _, line in module.co_lines() if line is not None}
    for const in module.co_consts:
        if isinstance(const, types.CodeType) and _is_class_body(const):
            lines.update(line for _, _, line in const.co_lines() if line is not None)
    return lines


def _is_class_body(code: types.CodeType) -> bool:
    return "__qualname__" in code.co_names and "__module__" in code.co_names


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
