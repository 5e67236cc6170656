"""Cyclic garbage is collected in the GUI thread, never in a worker thread."""

import gc
import threading
import weakref


class _Node:
    pass


def test_garbage_made_in_a_worker_is_collected_in_the_gui_thread(qtbot, qapp):
    from robogui.app.main_thread_gc import install_main_thread_gc

    install_main_thread_gc(qapp)
    assert not gc.isenabled()
    collected_in, kept = [], []

    def make_garbage():
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle: only the cyclic collector frees it
        weakref.finalize(a, lambda: collected_in.append(threading.current_thread().name))
        del a, b
        kept.extend([_Node()] for _ in range(5_000))  # live objects, past the threshold

    worker = threading.Thread(target=make_garbage, name="worker")
    worker.start()
    worker.join()
    assert collected_in == []  # nothing was collected in the worker
    qtbot.waitUntil(lambda: bool(collected_in), timeout=5000)
    assert collected_in == [threading.main_thread().name]
