"""docs/config_reference.md is what `acme-sim list --markdown` prints: the reference is generated from the
parameter tables that parse the config, so a table changed without rerunning tools/update_config_reference
fails here, naming the first line that differs."""
import subprocess
import sys


def main() -> int:
    binary, reference = sys.argv[1], sys.argv[2]
    out = subprocess.run([binary, "list", "--markdown"], check=True, capture_output=True, text=True).stdout
    with open(reference, encoding="utf-8") as f:
        committed = f.read()
    if out == committed:
        print(f"{reference}: up to date ({len(out.splitlines())} lines)")
        return 0
    new, old = out.splitlines(), committed.splitlines()
    for i in range(max(len(new), len(old))):
        a = old[i] if i < len(old) else "<end of file>"
        b = new[i] if i < len(new) else "<end of output>"
        if a != b:
            print(f"{reference}:{i + 1}: stale; the tables now give:\n  {b}\nthe file has:\n  {a}\n"
                  "run tools/update_config_reference and commit the result", file=sys.stderr)
            return 1
    return 1


if __name__ == "__main__":
    sys.exit(main())
