"""What test-kernel-layers and test-lib-layers share: the call graph of a
set of object files (from nm), its circles, the calls that go up a written
layer order, and the Check-style report."""
import subprocess


class Report:
    """Counts checks, prints one line each and the Check-style summary."""

    def __init__(self):
        self.checks = self.failures = 0

    def check(self, name, ok, detail=""):
        self.checks += 1
        if not ok:
            self.failures += 1
            print(f"FAIL {name}: {detail}")
        else:
            print(f"ok   {name}")

    def summary(self):
        passed = self.checks - self.failures
        print(f"{100 * passed // self.checks}%: Checks: {self.checks}, "
              f"Failures: {self.failures}, Errors: 0")
        return 1 if self.failures else 0


def symbols(obj, kinds):
    """(defined, used) symbol names of @obj; defined: nm types in @kinds."""
    out = subprocess.run(["nm", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in kinds:
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def call_graph(objs, kinds):
    """{stem: set of stems it calls} for @objs, a {stem: object path}."""
    defs, uses = {}, {}
    for stem, obj in objs.items():
        defs[stem], uses[stem] = symbols(obj, kinds)
    return {a: {b for b in defs if b != a and uses[a] & defs[b]} for a in defs}


def circles(graph):
    """The files reachable from themselves, sorted."""
    def reach(start):
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen
    return sorted(a for a in graph if a in reach(a))


def upward_calls(graph, order):
    """Calls from a file to one listed after it in @order, as "a -> b"."""
    rank = {f: i for i, f in enumerate(order)}
    return [f"{a} -> {b}" for a in sorted(graph) for b in sorted(graph[a])
            if a in rank and b in rank and rank[b] > rank[a]]
