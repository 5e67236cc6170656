"""Parsing an untrusted file in a worker process with a real memory budget and wall time.

A mesh or MuJoCo model from the internet can be built so that its parser (trimesh,
pycollada, MuJoCo's compiler: C code robogui cannot interrupt) runs for minutes or
allocates gigabytes before any check after the fact could see it. Here the parse runs in
a worker process whose address space is capped with ``RLIMIT_AS`` at its size before the
job plus the memory budget (``Limits.memory``), and that is killed and replaced when the
job outlives the wall-time limit (``Limits.seconds``). The caller gets the job's result,
the job's own exception, or :class:`WorkLimitExceeded` naming the limit and how to raise it.

Workers are Python processes that import numpy and trimesh once: started lazily (or
early by :func:`warm_up`), kept for later files, at most :data:`WORKERS` of them so a
robot's meshes are parsed two at a time (:func:`run_many`). A job is a module-level
function (pickled by name) and its arguments; its result comes back pickled (numpy arrays
cost one copy).
"""

from __future__ import annotations

import atexit
import os
import pickle
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from .limits import ENV, limits

__all__ = ["WorkLimitExceeded", "WorkerUnavailable", "run_bounded", "run_many", "warm_up",
           "preload", "shutdown", "WORKERS"]

#: worker processes kept (the machine's cores, at most 2: parsing is CPU-bound)
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: modules the forkserver imports once, so a new worker starts in milliseconds
PRELOAD = ["numpy", "trimesh", "collada", "robogui.engine.mesh_guard"]
#: modules of the callers' jobs, imported by new workers too (:func:`preload`)
_EXTRA: list[str] = []


def preload(*modules: str) -> None:
    """Have workers started from now on import ``modules`` (the module of a caller's job
    function) when they start, so the first file does not wait for that import."""
    for m in modules:
        if m not in _EXTRA:
            _EXTRA.append(m)


class WorkLimitExceeded(ValueError):
    """A job ran past the wall-time limit or the memory budget; the message names the
    limit and its environment variable. ``limit`` is ``"seconds"`` or ``"memory"``."""

    def __init__(self, message: str, limit: str):
        super().__init__(message)
        self.limit = limit

    def __reduce__(self):
        return (WorkLimitExceeded, (str(self), self.limit))


class WorkerUnavailable(OSError):
    """No worker process could be started (nothing is parsed without the bounds)."""


def _time_msg(seconds: float) -> str:
    return (f"took more than {seconds:g} s, the time limit (raise it with "
            f"{ENV['seconds']}=SECONDS)")


def _memory_msg(memory: int) -> str:
    return (f"needs more than {memory / 2**20:,.0f} MiB, the memory budget (raise it with "
            f"{ENV['memory']}=MIB)")


# -- the worker process ------------------------------------------------------------------------
def _address_space() -> int:
    """Bytes of virtual memory this process has mapped now (Linux: VmSize)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _portable(exc: BaseException) -> BaseException:
    """``exc`` itself when it survives pickling, else a ValueError with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return ValueError(f"{type(exc).__name__}: {exc}")


def _serve(conn) -> None:
    """The worker's loop: receive (function, args, memory budget), run it inside the
    budget, send ("ok", result) or ("error", exception); stop at end of input."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            fn, args, memory = conn.recv()
        except (EOFError, OSError):
            return
        cap = _address_space() + int(memory)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
            reply = ("ok", fn(*args))
        except MemoryError:
            reply = ("memory", None)
        except BaseException as exc:  # the job's own error goes back to the caller
            reply = ("error", _portable(exc))
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        try:
            conn.send(reply)
        except MemoryError:
            conn.send(("memory", None))
        except Exception:  # an exception or result that does not pickle
            conn.send(("error", _portable(reply[1]) if reply[0] == "error"
                       else ValueError("the result cannot be sent back")))
        if reply[0] == "memory":
            return  # a fresh worker replaces one whose heap hit the budget


# -- the parent's side -------------------------------------------------------------------------
def _main() -> None:
    """The worker process's entry: the channel to the parent is stdin and the original
    stdout (what libraries print goes to stderr instead), then :func:`_serve`."""
    import sys
    from multiprocessing.connection import Connection

    out = os.dup(1)
    os.dup2(2, 1)
    for name in PRELOAD + sys.argv[1:]:
        try:
            __import__(name)
        except Exception:
            pass
    conn = _Duplex(Connection(0, writable=False), Connection(out, readable=False))
    conn.send(("ready", None))
    _serve(conn)


class _Duplex:
    """A connection pair (read end, write end) used as one."""

    def __init__(self, r, w):
        self.r, self.w = r, w

    def recv(self):
        return self.r.recv()

    def send(self, obj) -> None:
        self.w.send(obj)

    def poll(self, timeout: float) -> bool:
        return self.r.poll(timeout)

    def close(self) -> None:
        for c in (self.r, self.w):
            try:
                c.close()
            except OSError:
                pass


#: seconds a new worker may take to start (interpreter and imports; not the file's time)
START_SECONDS = 120.0


class _Worker:
    """A worker process started as ``python -c`` (not multiprocessing's spawn or forkserver,
    which would import the caller's main script again), talking pickles over its pipes."""

    def __init__(self):
        import subprocess
        import sys
        from multiprocessing.connection import Connection

        env = dict(os.environ)
        path = [p for p in sys.path if p and os.path.isdir(p)]
        env["PYTHONPATH"] = os.pathsep.join(path + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = "1"  # one parse per process; no thread pools to reserve memory for
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from robogui.engine.bounded_work import _main; _main()",
             *_EXTRA],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True)
        self.conn = _Duplex(Connection(os.dup(self.proc.stdout.fileno()), writable=False),
                            Connection(os.dup(self.proc.stdin.fileno()), readable=False))
        self.proc.stdin.close()
        self.proc.stdout.close()
        ok = False
        try:
            ok = self.conn.poll(START_SECONDS) and self.conn.recv()[0] == "ready"
        except (EOFError, OSError):
            pass
        if not ok:
            self.kill()
            raise WorkerUnavailable("the worker process for reading files did not start")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(5.0)
        except Exception:
            pass
        self.conn.close()


class _Pool:
    def __init__(self):
        self.idle: queue.LifoQueue = queue.LifoQueue()
        self.slots = threading.Semaphore(WORKERS)

    def take(self, block: bool = True) -> _Worker | None:
        """A worker (an idle one or a new one) and its slot; None at once when not
        ``block`` and every slot is taken."""
        if not self.slots.acquire(blocking=block):
            return None
        try:
            while True:
                try:
                    w = self.idle.get_nowait()
                except queue.Empty:
                    return _Worker()
                if w.alive():
                    return w
                w.kill()
        except BaseException:
            self.slots.release()
            raise

    def give(self, w: _Worker | None) -> None:
        if w is not None:
            self.idle.put(w)
        self.slots.release()

    def close(self) -> None:
        while True:
            try:
                w = self.idle.get_nowait()
            except queue.Empty:
                return
            w.conn.close()  # the worker stops at end of input
            try:
                w.proc.wait(1.0)
            except Exception:
                pass
            w.kill()


_POOL = _Pool()
atexit.register(_POOL.close)


#: on a machine so busy that a worker got less than half a CPU, it may run this many times
#: the wall-time limit until it has used half the limit in CPU time
BUSY_GRACE = 3.0


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system, s) the process ``pid`` has used (Linux), else None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _wait(w: _Worker, seconds: float) -> bool:
    """Wait for the worker's answer: at most ``seconds``, or on a busy machine (the
    worker used less than half the limit in CPU time) up to BUSY_GRACE times as long."""
    start = time.monotonic()
    if w.conn.poll(seconds):
        return True
    while True:
        elapsed = time.monotonic() - start
        cpu = _cpu_seconds(w.proc.pid)
        if cpu is None or cpu >= 0.5 * seconds or elapsed >= BUSY_GRACE * seconds:
            return False
        if w.conn.poll(min(0.5, BUSY_GRACE * seconds - elapsed)):
            return True


def run_bounded(fn, *args):
    """``fn(*args)`` run in a worker process within the limits in force
    (:func:`robogui.engine.limits.limits`: ``seconds`` of wall time, ``memory`` bytes
    added to the worker). ``fn`` must be a module-level function and its arguments and
    result picklable. Returns its result or raises its exception; raises
    :class:`WorkLimitExceeded` when it runs past a limit (the worker is killed and
    replaced, so no work goes on in the background). The wall-time limit stretches to
    at most BUSY_GRACE times itself while the worker has had less than half the limit in
    CPU time (a machine busy with other work)."""
    lim = limits()
    w = _POOL.take()
    keep = None
    try:
        try:
            w.conn.send((fn, args, int(lim.memory)))
            ready = _wait(w, lim.seconds)
        except (OSError, EOFError):
            ready = None
        if not ready:
            w.kill()
            if ready is None:
                raise WorkLimitExceeded("the worker process could not be reached", "memory")
            raise WorkLimitExceeded(_time_msg(lim.seconds), "seconds")
        try:
            status, payload = w.conn.recv()
        except (EOFError, OSError):
            w.kill()  # it died while working: the budget hit inside C code, or a crash
            code = w.proc.returncode
            raise WorkLimitExceeded(f"{_memory_msg(lim.memory)}; the reader process ended "
                                    f"(exit code {code}) while reading it", "memory") from None
        if status == "memory":
            w.kill()
            raise WorkLimitExceeded(_memory_msg(lim.memory), "memory")
        keep = w
        if status == "error":
            raise payload
        return payload
    finally:
        _POOL.give(keep)


def run_many(calls) -> list:
    """``[fn(*args) for fn, args in calls]`` run two at a time (:data:`WORKERS`) by
    :func:`run_bounded`; a call that fails gives its exception in its place."""
    calls = list(calls)

    def one(call):
        fn, args = call
        try:
            return run_bounded(fn, *args)
        except Exception as exc:
            return exc

    if len(calls) <= 1 or WORKERS == 1:
        return [one(c) for c in calls]
    with ThreadPoolExecutor(max_workers=WORKERS) as ex:
        return list(ex.map(one, calls))


def warm_up(background: bool = True) -> None:
    """Start the :data:`WORKERS` worker processes now (in a thread when ``background``),
    so the first file does not wait for them to import numpy and trimesh."""
    def go():
        taken = []
        try:
            for _ in range(WORKERS):
                # distinct workers: none is given back yet; a slot in use (a job, another
                # warm-up) is not waited for, so warm-ups never hold slots waiting for
                # each other's
                w = _POOL.take(block=False)
                if w is None:
                    break
                taken.append(w)
        except Exception:
            pass
        finally:
            for w in taken:
                _POOL.give(w)

    if background:
        threading.Thread(target=go, name="robogui-warm-up", daemon=True).start()
    else:
        go()


def shutdown() -> None:
    """Stop the idle workers (they are started again when needed)."""
    _POOL.close()
