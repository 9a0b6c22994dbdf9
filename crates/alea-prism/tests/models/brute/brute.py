#!/usr/bin/env python3
"""Independent answers for the test models, in exact rational arithmetic.

Every model of ../*.prism is written here again, by hand, as a plain Python transition
function (no PRISM text is read), and its properties are solved exactly with
fractions.Fraction: Markov chains by Gaussian elimination, decision processes by
enumerating their memoryless schedulers (small models) or by policy iteration (models in
which every scheduler ends the game), bounded properties by stepping the distribution.

    python3 brute.py            # print every case's value
    python3 brute.py --check    # compare with ../expected.json (exit status 1 on a mismatch)

It needs nothing beyond the Python standard library and runs in a few seconds.
"""

import itertools
import json
import os
import sys
from fractions import Fraction as Q

INF = "infinite"

# --------------------------------------------------------------------------------------
# Exact solvers. A chain is {state: [(p, successor), ...]}; a decision process is
# {state: [[(p, successor), ...], ...]} (one list per choice), with rewards given per
# state (srew) and per state and choice (crew).


def solve_linear(rows, rhs):
    """Solves sum_j rows[i][j] x_j = rhs[i] exactly (rows: list of dicts)."""
    n = len(rows)
    rows = [dict(r) for r in rows]
    rhs = list(rhs)
    for col in range(n):
        piv = next(i for i in range(col, n) if rows[i].get(col, 0) != 0)
        rows[col], rows[piv] = rows[piv], rows[col]
        rhs[col], rhs[piv] = rhs[piv], rhs[col]
        pr = rows[col]
        inv = 1 / pr[col]
        for k in list(pr):
            pr[k] *= inv
        rhs[col] *= inv
        for i in range(n):
            if i != col and rows[i].get(col, 0) != 0:
                f = rows[i][col]
                for k, v in pr.items():
                    rows[i][k] = rows[i].get(k, 0) - f * v
                    if rows[i][k] == 0:
                        del rows[i][k]
                rhs[i] -= f * rhs[col]
    return rhs


def can_reach(chain, target):
    """States of a chain (or of the graph of all choices) from which target is reachable."""
    pred = {}
    for s, succ in chain.items():
        for _, t in succ:
            pred.setdefault(t, set()).add(s)
    seen = set(s for s in chain if target(s))
    stack = list(seen)
    while stack:
        t = stack.pop()
        for s in pred.get(t, ()):
            if s not in seen:
                seen.add(s)
                stack.append(s)
    return seen


def reach(chain, target, left=lambda s: True):
    """P(left U target) in a chain, for every state."""
    good = can_reach({s: [(p, t) for p, t in succ] if left(s) else [] for s, succ in chain.items()},
                     target)
    unknown = [s for s in chain if s in good and not target(s)]
    idx = {s: i for i, s in enumerate(unknown)}
    rows, rhs = [], []
    for s in unknown:
        row = {idx[s]: Q(1)}
        b = Q(0)
        for p, t in chain[s]:
            if target(t):
                b += p
            elif t in idx:
                row[idx[t]] = row.get(idx[t], 0) - p
        rows.append(row)
        rhs.append(b)
    x = solve_linear(rows, rhs)
    return {s: (Q(1) if target(s) else (x[idx[s]] if s in idx else Q(0))) for s in chain}


def total_reward(chain, srew, trew, target):
    """Expected reward gathered before reaching target (infinite where target is not sure)."""
    pr = reach(chain, target)
    finite = [s for s in chain if pr[s] == 1 and not target(s)]
    idx = {s: i for i, s in enumerate(finite)}
    rows, rhs = [], []
    for s in finite:
        row = {idx[s]: Q(1)}
        for p, t in chain[s]:
            if t in idx:
                row[idx[t]] = row.get(idx[t], 0) - p
        rows.append(row)
        rhs.append(srew(s) + trew(s))
    x = solve_linear(rows, rhs)
    return {s: (Q(0) if target(s) else (x[idx[s]] if s in idx else INF)) for s in chain}


def step(dist, chain):
    out = {}
    for s, p in dist.items():
        for q, t in chain[s]:
            out[t] = out.get(t, 0) + p * q
    return out


def bounded_until(chain, start, left, target, k):
    """P(left U<=k target) from start: stepping the distribution, absorbing at target."""
    dist, done = {start: Q(1)}, Q(0)
    for i in range(k + 1):
        done += sum(p for s, p in dist.items() if target(s))
        if i == k:
            break
        dist = {s: p for s, p in dist.items() if not target(s) and left(s)}
        dist = step(dist, chain)
    return done


def cumulative(chain, start, srew, trew, k):
    dist, total = {start: Q(1)}, Q(0)
    for _ in range(k):
        total += sum(p * (srew(s) + trew(s)) for s, p in dist.items())
        dist = step(dist, chain)
    return total


def schedulers(mdp):
    """Every memoryless deterministic scheduler, as the chain it induces."""
    states = list(mdp)
    for picks in itertools.product(*[range(len(mdp[s])) for s in states]):
        yield {s: mdp[s][c] for s, c in zip(states, picks)}, dict(zip(states, picks))


def opt(values, best):
    """The max or min of exact values, some of which may be infinite."""
    if best is max:
        return INF if INF in values else max(values)
    finite = [v for v in values if v != INF]
    return min(finite) if finite else INF


def policy_iteration(mdp, value_of, best, start_pick=0):
    """Optimal values where every scheduler is proper (no end components): value_of(chain)
    evaluates a chain exactly; choices are improved one step ahead until none changes."""
    pick = {s: min(start_pick, len(c) - 1) for s, c in mdp.items()}
    while True:
        chain = {s: mdp[s][pick[s]] for s in mdp}
        v, local = value_of(chain)
        changed = False
        for s, choices in mdp.items():
            vals = [local(s, c) + sum(p * v[t] for p, t in succ) for c, succ in enumerate(choices)]
            cur = vals[pick[s]]
            b = best(vals)
            if b != cur:
                pick[s] = vals.index(b)
                changed = True
        if not changed:
            return v


# --------------------------------------------------------------------------------------
# The games of alea, as the built-in commands define them.


def dice_expected(n, faces, reset):
    """One Person Game: E_c = A_c + B_c * E_0, from the counter n down to 0."""
    outs = {}
    total = 1
    for k in faces:
        total *= k
    for throw in itertools.product(*[range(1, k + 1) for k in faces]):
        key = None if list(throw) == list(reset) else sum(throw)
        outs[key] = outs.get(key, 0) + 1
    A, B = {}, {}
    for c in range(n, -1, -1):
        a, b = Q(1), Q(0)
        for key, cnt in outs.items():
            p = Q(cnt, total)
            if key is None:
                b += p
            elif c + key <= n:
                a += p * A[c + key]
                b += p * B[c + key]
        A[c], B[c] = a, b
    return A[0] / (1 - B[0])


def dice_within(n, faces, reset, t):
    """P(the game is over within t throws)."""
    total = 1
    for k in faces:
        total *= k
    dist, over = {0: Q(1)}, Q(0)
    for _ in range(t):
        new = {}
        for c, p in dist.items():
            for throw in itertools.product(*[range(1, k + 1) for k in faces]):
                q = p / total
                nc = 0 if list(throw) == list(reset) else c + sum(throw)
                if nc > n:
                    over += q
                else:
                    new[nc] = new.get(nc, 0) + q
        dist = new
    return over


CLASSIC = {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100,
           16: 6, 47: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78}


def snakes_chain(overshoot):
    chain = {}
    for sq in range(0, 100):
        succ = []
        for f in range(1, 7):
            t = sq + f
            if t > 100:
                t = {0: sq, 1: 200 - t, 2: 100}[overshoot]
            succ.append((Q(1, 6), CLASSIC.get(t, t)))
        chain[sq] = succ
    chain[100] = [(Q(1), 100)]
    return chain


def pig_mdp(goal, h, first):
    """Pig against hold-at-h: (me, opp, turn total, mover, must throw); 'W' and 'L' end."""
    mdp = {}
    start = (0, 0, 0, first, True)
    stack, seen = [start], {start}
    while stack:
        s = stack.pop()
        if s in ("W", "L"):
            mdp[s] = [[(Q(1), s)]]
            continue
        me, opp, t, p, throw = s
        if throw:
            banked = me if p == 0 else opp
            succ = [(Q(1, 6), (me, opp, 0, 1 - p, True))]
            for r in range(2, 7):
                if banked + t + r >= goal:
                    succ.append((Q(1, 6), "W" if p == 0 else "L"))
                else:
                    succ.append((Q(1, 6), (me, opp, t + r, p, False)))
            choices = [succ]
        elif p == 0:
            choices = [[(Q(1), (me, opp, t, 0, True))], [(Q(1), (me + t, opp, 0, 1, True))]]
        else:
            choices = [[(Q(1), (me, opp + t, 0, 0, True) if t >= h else (me, opp, t, 1, True))]]
        mdp[s] = choices
        for c in choices:
            for _, u in c:
                if u not in seen:
                    seen.add(u)
                    stack.append(u)
    return mdp, start


def pig_value(goal, h, first, best):
    mdp, start = pig_mdp(goal, h, first)
    won = lambda s: s == "W"

    def value_of(chain):
        return reach(chain, won), lambda s, c: 0

    return policy_iteration(mdp, value_of, best)[start]


def dice_two_big(n, faces, reset, big):
    """Expected throws until the game ends or two throws in a row sum to at least `big`:
    a chain over (counter, whether the last throw was big), solved exactly."""
    total = 1
    for k in faces:
        total *= k
    outcomes = {}
    for throw in itertools.product(*[range(1, k + 1) for k in faces]):
        key = (list(throw) == list(reset), sum(throw))
        outcomes[key] = outcomes.get(key, 0) + 1
    states = [(x, last) for x in range(n + 1) for last in (False, True)]
    index = {st: i for i, st in enumerate(states)}
    rows, rhs = [], []
    for x, last in states:
        row = {index[(x, last)]: Q(1)}
        for (is_reset, s), count in outcomes.items():
            p = Q(count, total)
            now_big = s >= big
            if last and now_big:
                continue
            nx = 0 if is_reset else x + s
            if nx > n:
                continue
            j = index[(nx, now_big)]
            row[j] = row.get(j, 0) - p
        rows.append(row)
        rhs.append(Q(1))
    return solve_linear(rows, rhs)[index[(0, False)]]


def pig_lead_then_win(goal, h, first, a, b):
    """Pmax of (opp<a U me>=b) & (F won), on Pig against hold-at-h: the path carries a
    flag written here by hand, not by an automaton: 0 pending, 1 led, 2 failed."""
    mdp, start = pig_mdp(goal, h, first)

    def flag_at(f, u):
        if f != 0:
            return f
        if u == "W":
            return 1
        if u == "L":
            return 2
        me, opp = u[0], u[1]
        return 1 if me >= b else (2 if opp >= a else 0)

    prod = {}
    first_state = (start, flag_at(0, start))
    stack, seen = [first_state], {first_state}
    while stack:
        s, f = stack.pop()
        prod[(s, f)] = [[(p, (u, flag_at(f, u))) for p, u in succ] for succ in mdp[s]]
        for c in prod[(s, f)]:
            for _, v in c:
                if v not in seen:
                    seen.add(v)
                    stack.append(v)

    def value_of(chain):
        return reach(chain, lambda x: x == ("W", 1)), lambda s, c: 0

    return policy_iteration(prod, value_of, max)[first_state]


def pig_throws(goal, h, first, best):
    """Expected throws to the end of the game (every scheduler ends it)."""
    mdp, start = pig_mdp(goal, h, first)
    end = lambda s: s in ("W", "L")
    throws = lambda s: Q(1) if s not in ("W", "L") and s[4] else Q(0)

    def value_of(chain):
        return total_reward(chain, throws, lambda s: 0, end), lambda s, c: throws(s)

    return policy_iteration(mdp, value_of, best)[start]


# --------------------------------------------------------------------------------------
# The small models.


def knuth_yao(p):
    p = Q(p)
    q = 1 - p
    ch = {
        (0, 0): [(p, (1, 0)), (q, (2, 0))],
        (1, 0): [(p, (3, 0)), (q, (4, 0))],
        (2, 0): [(p, (5, 0)), (q, (6, 0))],
        (3, 0): [(p, (1, 0)), (q, (7, 1))],
        (4, 0): [(p, (7, 2)), (q, (7, 3))],
        (5, 0): [(p, (7, 4)), (q, (7, 5))],
        (6, 0): [(p, (2, 0)), (q, (7, 6))],
    }
    for d in range(1, 7):
        ch[(7, d)] = [(Q(1), (7, d))]
    return ch


def sync_chain(N=2, pa=Q(1, 2), pb=Q(1, 3)):
    ch = {}
    for a in range(N + 1):
        for b in range(N + 1):
            for w in range(4):
                s = (a, b, w)
                finished = a == N or b == N
                if not finished:
                    ch[s] = [(pa * pb, (a + 1, b + 1, w)), (pa * (1 - pb), (a + 1, b, w)),
                             ((1 - pa) * pb, (a, b + 1, w)), ((1 - pa) * (1 - pb), (a, b, w))]
                elif w == 0:
                    ch[s] = [(Q(1), (a, b, 3 if a == N and b == N else (1 if a == N else 2)))]
                else:
                    ch[s] = [(Q(1), s)]
    inits = [(a, b, 0) for a in range(2) for b in range(2)]
    return ch, inits


def sync_mdp(N=3):
    coins = [lambda x: [(Q(1, 2), x + 1), (Q(1, 2), x)],
             lambda x: [(Q(1, 5), min(x + 2, N)), (Q(4, 5), x)]]
    mdp = {}
    for a in range(N + 1):
        for b in range(N + 1):
            for w in range(4):
                s = (a, b, w)
                if not (a == N or b == N):
                    choices = []
                    for ca in coins:
                        for cb in coins:
                            choices.append([(p * q, (a2, b2, w)) for p, a2 in ca(a) for q, b2 in cb(b)])
                    mdp[s] = choices
                elif w == 0:
                    mdp[s] = [[(Q(1), (a, b, 3 if a == N and b == N else (1 if a == N else 2)))]]
                else:
                    mdp[s] = [[(Q(1), s)]]
    inits = [(a, b, 0) for a in range(2) for b in range(2)]
    return mdp, inits


def end_components():
    """Choices of each state: (action, successors)."""
    return {
        0: [("wait", [(Q(1), 0)]), ("go", [(Q(1, 2), 1), (Q(1, 2), 2)])],
        1: [("", [(Q(1), 1)])],
        2: [("back", [(Q(1), 0)]), ("risk", [(Q(1, 3), 1), (Q(2, 3), 3)])],
        3: [("", [(Q(1), 3)])],
        4: [("stay", [(Q(1), 4)]), ("hop", [(Q(1), 5)]), ("try", [(Q(1, 2), 1), (Q(1, 2), 3)])],
        5: [("hop", [(Q(1), 4)]), ("try", [(Q(1, 4), 1), (Q(3, 4), 3)])],
        6: [("again", [(Q(1, 2), 1), (Q(1, 2), 6)]), ("jump", [(Q(1), 1)])],
    }


EC_COST = {"go": 2, "back": 1, "risk": 5, "try": 1, "again": 1, "jump": 3}


def ec_opt(start, kind, best, target, reward=None):
    """Pmax/Pmin ("P") or Rmax/Rmin ("R") by enumerating all 48 memoryless schedulers."""
    mdp = end_components()
    steps = lambda s: Q(0) if s in (1, 3) else Q(1)
    vals = []
    for picks in itertools.product(*[range(len(mdp[s])) for s in sorted(mdp)]):
        pick = dict(zip(sorted(mdp), picks))
        chain = {s: mdp[s][pick[s]][1] for s in mdp}
        act = {s: mdp[s][pick[s]][0] for s in mdp}
        srew = steps if reward == "steps" else (lambda s: 0)
        trew = (lambda s: Q(EC_COST.get(act[s], 0))) if reward == "cost" else (lambda s: 0)
        if kind == "P":
            vals.append(reach(chain, target)[start])
        else:
            vals.append(total_reward(chain, srew, trew, target)[start])
    return opt(vals, best)


def ec_bounded(start, best, k, target, left=lambda s: True):
    """Pmax/Pmin of left U<=k target by backward induction over the horizon."""
    mdp = end_components()
    v = {s: Q(1) if target(s) else Q(0) for s in mdp}
    for _ in range(k):
        v = {s: Q(1) if target(s) else (Q(0) if not left(s) else
             best([sum(p * v[t] for p, t in succ) for _, succ in mdp[s]])) for s in mdp}
    return v[start]


def ec_cumulative(start, best, k, reward):
    """Rmax/Rmin of C<=k by backward induction over the horizon."""
    mdp = end_components()
    v = {s: Q(0) for s in mdp}
    for _ in range(k):
        nv = {}
        for s in mdp:
            opts = []
            for act, succ in mdp[s]:
                r = Q(EC_COST.get(act, 0)) if reward == "cost" else (Q(0) if s in (1, 3) else Q(1))
                opts.append(r + sum(p * v[t] for p, t in succ))
            nv[s] = best(opts)
        v = nv
    return v[start]


def bounded_chain():
    h = Q(1, 2)
    return {0: [(h, 1), (h, 0)], 1: [(h, 2), (h, 0)], 2: [(Q(1), 3)], 3: [(Q(1), 3)]}


def bounded_srew(s):
    return {0: Q(1), 1: Q(2)}.get(s, Q(0))


def bounded_trew(s):
    return Q(3) if s == 1 else Q(0)


def gambler():
    p = Q(4, 10)
    N = 5
    ch = {x: ([(p, x + 1), (1 - p, x - 1)] if 0 < x < N else [(Q(1), x)]) for x in range(N + 1)}
    return ch, 2, N


def decimals():
    return {0: [(Q(7, 10), 3), (Q(2, 10), 2), (Q(1, 10), 1)],
            3: [(Q(1, 3), 0), (Q(2, 3), 4)],
            1: [(Q(1), 1)], 2: [(Q(1), 2)], 4: [(Q(1), 4)]}


def deadlock():
    # States 2 and 4 have no command: they stay where they are.
    return {0: [(Q(1, 3), 1), (Q(2, 3), 2)], 1: [(Q(1, 2), 3), (Q(1, 2), 4)],
            2: [(Q(1), 2)], 3: [(Q(1), 3)], 4: [(Q(1), 4)]}


def functions():
    ch = {}
    for x in range(11):
        for c in range(3):
            if x < 8:
                ch[(x, c)] = [(Q(1, 2), (x + 1, (c + 1) % 3)), (Q(1, 2), (x + 2, (c + 2) % 3))]
            else:
                ch[(x, c)] = [(Q(1), (x, c))]
    return ch, (2, 0)


# --------------------------------------------------------------------------------------


def cases():
    """(case name, value) for every case of expected.json that this script answers."""
    out = {}

    # dice: the two samples and more games, expected throws and the distribution.
    dice = {
        "dice-sample-1": (0, (2, 2, 2), (1, 1, 1)),
        "dice-sample-2": (0, (6, 6, 6), (1, 1, 1)),
        "dice-n10-666-123": (10, (6, 6, 6), (1, 2, 3)),
        "dice-n20-232-231": (20, (2, 3, 2), (2, 3, 1)),
        "dice-n30-456-234": (30, (4, 5, 6), (2, 3, 4)),
        "dice-n100-222-111": (100, (2, 2, 2), (1, 1, 1)),
    }
    for name, (n, faces, reset) in dice.items():
        out[name] = dice_expected(n, faces, reset)
    out["dice-n10-666-123-within-2"] = dice_within(10, (6, 6, 6), (1, 2, 3), 2)
    out["dice-n30-456-234-two-big"] = dice_two_big(30, (4, 5, 6), (2, 3, 4), 10)
    out["dice-n10-666-123-within-3"] = dice_within(10, (6, 6, 6), (1, 2, 3), 3)
    out["dice-n20-232-231-within-3"] = dice_within(20, (2, 3, 2), (2, 3, 1), 3)
    out["dice-n20-232-231-within-8"] = dice_within(20, (2, 3, 2), (2, 3, 1), 8)

    # snakes: the classic board, three overshoot rules, two ways of writing it.
    end = lambda s: s == 100
    for o, rule in enumerate(["stay", "bounce", "finish"]):
        ch = snakes_chain(o)
        e = total_reward(ch, lambda s: Q(1), lambda s: 0, end)[0]
        out[f"snakes-{rule}-spins"] = e
        out[f"snakes-direct-{rule}-steps"] = e
        out[f"snakes-direct-{rule}-spins"] = e
    ch = snakes_chain(0)
    for k in (6, 7, 10, 20, 50):
        v = bounded_until(ch, 0, lambda s: True, end, k)
        out[f"snakes-direct-stay-within-{k}"] = v
        out[f"snakes-stay-within-{k}"] = v
    out["snakes-direct-bounce-within-20"] = bounded_until(snakes_chain(1), 0, lambda s: True, end, 20)

    # pig against hold-at-h: goal 8 is small enough to solve here.
    out["pig-g8-h8-first"] = pig_value(8, 8, 0, max)
    out["pig-g8-h8-second"] = pig_value(8, 8, 1, max)
    out["pig-g8-h4-first"] = pig_value(8, 4, 0, max)
    out["pig-g8-h8-first-pmin"] = pig_value(8, 8, 0, min)
    out["pig-g8-h4-lead-then-win"] = pig_lead_then_win(8, 4, 0, 2, 4)
    out["pig-g8-h8-first-throws-min"] = pig_throws(8, 8, 0, min)
    out["pig-g8-h8-first-throws-max"] = pig_throws(8, 8, 0, max)

    # Knuth-Yao.
    ky = knuth_yao(Q(1, 2))
    done = lambda s: s[0] == 7
    for d in range(1, 7):
        out[f"knuth-yao-face-{d}"] = reach(ky, lambda s, d=d: s == (7, d))[(0, 0)]
    flips = total_reward(ky, lambda s: Q(0) if s[0] == 7 else Q(1), lambda s: 0, done)[(0, 0)]
    out["knuth-yao-flips"] = flips
    out["knuth-yao-steps"] = flips
    out["knuth-yao-within-3"] = bounded_until(ky, (0, 0), lambda s: True, done, 3)
    out["knuth-yao-within-5"] = bounded_until(ky, (0, 0), lambda s: True, done, 5)
    ky6 = knuth_yao(Q(6, 10))
    for d in range(1, 7):
        out[f"knuth-yao-biased-face-{d}"] = reach(ky6, lambda s, d=d: s == (7, d))[(0, 0)]
    out["knuth-yao-biased-flips"] = total_reward(
        ky6, lambda s: Q(0) if s[0] == 7 else Q(1), lambda s: 0, done)[(0, 0)]

    # The synchronised race (dtmc): filters over the four initial states.
    ch, inits = sync_chain()
    for lab, w in (("a-first", 1), ("b-first", 2), ("tie", 3)):
        v = reach(ch, lambda s, w=w: s[2] == w)
        vals = [v[s] for s in inits]
        out[f"sync-{lab}-min"] = min(vals)
        out[f"sync-{lab}-max"] = max(vals)
        out[f"sync-{lab}-avg"] = sum(vals) / len(vals)
    rounds = total_reward(ch, lambda s: Q(0), lambda s: Q(1) if not (s[0] == 2 or s[1] == 2) else Q(0),
                          lambda s: s[2] > 0)
    out["sync-rounds-max"] = max(rounds[s] for s in inits)
    out["sync-rounds-min"] = min(rounds[s] for s in inits)
    out["sync-a-first-from-00"] = reach(ch, lambda s: s[2] == 1)[(0, 0, 0)]
    out["sync-tie-within-3-avg"] = sum(
        bounded_until(ch, s, lambda s: True, lambda s: s[2] == 3, 3) for s in inits) / 4

    # The synchronised race (mdp): every scheduler ends the race, so policy iteration.
    mdp, inits = sync_mdp()
    for lab, w in (("a-first", 1), ("tie", 3)):
        for bname, best in (("max", max), ("min", min)):
            target = lambda s, w=w: s[2] == w
            v = policy_iteration(mdp, lambda chain, target=target: (reach(chain, target), lambda s, c: 0), best)
            vals = [v[s] for s in inits]
            for fname, f in (("min", min), ("max", max), ("avg", lambda x: sum(x) / len(x))):
                out[f"sync-mdp-{lab}-p{bname}-{fname}"] = f(vals)
    racing = lambda s: not (s[0] == 3 or s[1] == 3)
    for bname, best in (("max", max), ("min", min)):
        v = policy_iteration(
            mdp,
            lambda chain: (total_reward(chain, lambda s: 0, lambda s: Q(1) if racing(s) else Q(0),
                                        lambda s: s[2] > 0),
                           lambda s, c: Q(1) if racing(s) else Q(0)),
            best)
        vals = [v[s] for s in inits]
        out[f"sync-mdp-rounds-r{bname}-max"] = max(vals)
        out[f"sync-mdp-rounds-r{bname}-min"] = min(vals)

    # End components.
    goal = lambda s: s == 1
    trap = lambda s: s == 3
    absorbed = lambda s: s in (1, 3)
    for st in (0, 4, 6):
        out[f"ec-{st}-pmax-goal"] = ec_opt(st, "P", max, goal)
        out[f"ec-{st}-pmin-goal"] = ec_opt(st, "P", min, goal)
        for r in ("steps", "cost"):
            out[f"ec-{st}-rmin-{r}-goal"] = ec_opt(st, "R", min, goal, r)
            out[f"ec-{st}-rmax-{r}-goal"] = ec_opt(st, "R", max, goal, r)
        out[f"ec-{st}-rmin-steps-absorbed"] = ec_opt(st, "R", min, absorbed, "steps")
        out[f"ec-{st}-rmax-steps-absorbed"] = ec_opt(st, "R", max, absorbed, "steps")
    out["ec-0-pmax-trap"] = ec_opt(0, "P", max, trap)
    out["ec-0-pmin-trap"] = ec_opt(0, "P", min, trap)
    out["ec-0-rmin-cost-absorbed"] = ec_opt(0, "R", min, absorbed, "cost")
    out["ec-0-pmax-goal-within-1"] = ec_bounded(0, max, 1, goal)
    out["ec-0-pmax-goal-within-3"] = ec_bounded(0, max, 3, goal)
    out["ec-0-pmin-goal-within-3"] = ec_bounded(0, min, 3, goal)
    out["ec-0-pmax-until-3"] = ec_bounded(0, max, 3, goal, lambda s: s != 2)
    out["ec-4-pmax-goal-within-2"] = ec_bounded(4, max, 2, goal)
    out["ec-0-rmax-cost-c3"] = ec_cumulative(0, max, 3, "cost")
    out["ec-0-rmin-cost-c3"] = ec_cumulative(0, min, 3, "cost")
    out["ec-0-rmax-steps-c4"] = ec_cumulative(0, max, 4, "steps")

    # Bounded properties.
    ch = bounded_chain()
    end3 = lambda s: s == 3
    for k in (0, 2, 3, 4, 10):
        out[f"bounded-f{k}"] = bounded_until(ch, 0, lambda s: True, end3, k)
    out["bounded-until-3"] = bounded_until(ch, 0, lambda s: s == 0, lambda s: s == 1, 3)
    out["bounded-until-5"] = bounded_until(ch, 0, lambda s: s <= 1, lambda s: s == 2, 5)
    for k in (0, 1, 2, 5):
        out[f"bounded-c{k}"] = cumulative(ch, 0, bounded_srew, bounded_trew, k)
    out["bounded-total"] = total_reward(ch, bounded_srew, bounded_trew, end3)[0]
    out["bounded-eventually"] = reach(ch, end3)[0]

    # Exact arithmetic.
    ch, start, N = gambler()
    out["gambler-rich"] = reach(ch, lambda x: x == N)[start]
    out["gambler-ruined"] = reach(ch, lambda x: x == 0)[start]
    bets = total_reward(ch, lambda x: 0, lambda x: Q(1) if 0 < x < N else Q(0), lambda x: x in (0, N))[start]
    out["gambler-bets"] = bets
    out["gambler-steps"] = bets
    out["gambler-rich-within-4"] = bounded_until(ch, start, lambda x: True, lambda x: x == N, 4)
    ch = decimals()
    for t in (1, 2, 4):
        out[f"decimals-reach-{t}"] = reach(ch, lambda s, t=t: s == t)[0]
    out["decimals-steps"] = total_reward(ch, lambda s: Q(1), lambda s: 0, lambda s: s in (1, 2, 4))[0]
    ch, start = functions()
    out["functions-exact"] = reach(ch, lambda s: s[0] == 8)[start]
    out["functions-exact-c0"] = reach(ch, lambda s: s[0] == 8 and s[1] == 0)[start]
    out["functions-nine"] = reach(ch, lambda s: s[0] == 9)[start]
    out["functions-steps"] = total_reward(ch, lambda s: Q(1), lambda s: 0, lambda s: s[0] >= 8)[start]

    # Deadlocks.
    ch = deadlock()
    dl = lambda s: s in (2, 4)
    out["deadlock-reach"] = reach(ch, dl)[0]
    out["deadlock-reach-3"] = reach(ch, lambda s: s == 3)[0]
    out["deadlock-steps-infinite"] = total_reward(ch, lambda s: Q(1), lambda s: 0, dl)[0]
    out["deadlock-time-infinite"] = out["deadlock-steps-infinite"]
    out["deadlock-steps-any"] = total_reward(ch, lambda s: Q(1), lambda s: 0, lambda s: s >= 2)[0]
    return out


def show(v):
    if v == INF:
        return INF
    v = Q(v)
    return f"{v.numerator}/{v.denominator}"


def main():
    got = cases()
    if "--check" not in sys.argv:
        for name, v in got.items():
            print(name, show(v))
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "expected.json")) as f:
        manifest = json.load(f)
    bad = 0
    seen = set()
    for case in manifest["cases"]:
        name = case["name"]
        if name not in got:
            continue
        seen.add(name)
        mine = show(got[name])
        if mine != case["expected"]:
            print(f"MISMATCH {name}: expected.json has {case['expected']}, brute force {mine}")
            bad += 1
    for name in got:
        if name not in seen:
            print(f"not in expected.json: {name}")
            bad += 1
    print(f"{len(seen)} cases checked, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
