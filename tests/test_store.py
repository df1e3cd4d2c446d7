import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ragcourse.chunking import Chunk
from ragcourse.errors import CourseError
from ragcourse.store import VectorStore


def chunk(doc_id: str, position: int) -> Chunk:
    return Chunk(chunk_id=f"{doc_id}:{position:03d}", doc_id=doc_id, position=position, title=doc_id.upper(),
                 heading="", text=f"text {doc_id} {position}", source=f"docs/{doc_id}.md", allowed_groups=("g1",))


CHUNKS = [chunk(d, p) for d in ("alpha", "beta", "gamma") for p in range(2)]


def vectors(n: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(7).normal(size=(n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def exercise(store: VectorStore) -> None:
    """The store's whole contract, run against an embedded and a server-backed collection alike."""
    v = vectors(len(CHUNKS))
    store.upsert(CHUNKS, v)
    assert store.count() == 6 and store.ids() == {c.chunk_id for c in CHUNKS}

    best = store.query(v[2], 3)
    assert best[0][0] == "beta:000" and best[0][1] == pytest.approx(1.0, abs=1e-5)  # cosine similarity
    assert [s for _, s in best] == sorted((s for _, s in best), reverse=True)

    # The filter is inside the query: even the exact vector of a hidden chunk returns only visible ones.
    only = store.query(v[2], 10, doc_ids={"alpha", "gamma"})
    assert {cid.split(":")[0] for cid, _ in only} == {"alpha", "gamma"} and len(only) == 4
    assert store.query(v[2], 10, doc_ids=set()) == []

    store.set_allowed_groups("beta", ["g2", "g3"])
    got = store._collection.get(ids=["beta:000", "alpha:000"], include=["metadatas"])
    groups = {cid: m["allowed_groups"] for cid, m in zip(got["ids"], got["metadatas"], strict=True)}
    assert groups == {"beta:000": "g2,g3", "alpha:000": "g1"}

    store.upsert(CHUNKS[:1], v[1:2])  # replacing a chunk's vector keeps one row
    assert store.count() == 6 and store.query(v[1], 1)[0][1] == pytest.approx(1.0, abs=1e-5)
    store.delete(["alpha:000", "alpha:001"])
    assert store.count() == 4 and "alpha:000" not in store.ids()


def test_persistent_store(tmp_path: Path):
    exercise(VectorStore("unit", path=tmp_path / "db"))
    assert VectorStore("unit", path=tmp_path / "db").count() == 4  # it persisted


def test_short_names_and_length_mismatches_are_rejected(tmp_path: Path):
    with pytest.raises(CourseError):
        VectorStore("ab", path=tmp_path)
    with pytest.raises(ValueError):
        VectorStore("unit", path=tmp_path).upsert(CHUNKS, vectors(2))


class LosesOne:
    """A Chroma collection whose search misses one live record until it is deleted and added again: the symptom
    of chroma-core/chroma#7758, which real churn produces too rarely to test on."""

    def __init__(self, collection: object, lost: str) -> None:
        self._collection, self.lost = collection, lost

    def __getattr__(self, name: str) -> object:
        return getattr(self._collection, name)

    def delete(self, ids: list[str]) -> None:
        if self.lost in ids:
            self.lost = ""
        self._collection.delete(ids=ids)

    def query(self, **kwargs: object) -> dict:
        result = self._collection.query(**kwargs)
        for hits, distances in zip(result["ids"], result["distances"], strict=True):
            if self.lost in hits:
                at = hits.index(self.lost)
                del hits[at], distances[at]
        return result


def test_a_chunk_that_search_cannot_find_is_written_again(tmp_path: Path):
    store = VectorStore("unit", path=tmp_path)
    twins = [chunk("delta", p) for p in range(12)]  # more copies of one vector than a check reads: not lost
    store.upsert(CHUNKS + twins, np.vstack([vectors(len(CHUNKS)), np.repeat(vectors(1, 8) * -1, 12, axis=0)]))
    assert store.relink_unfound() == []
    store._collection = LosesOne(store._collection, "gamma:001")
    assert "gamma:001" not in {cid for cid, _ in store.query(vectors(6)[5], 20)}
    assert store.relink_unfound() == ["gamma:001"]
    assert store.query(vectors(6)[5], 1)[0][0] == "gamma:001" and store.count() == 18
    got = store._collection.get(ids=["gamma:001"], include=["documents", "metadatas"])
    assert got["documents"] == ["text gamma 1"] and got["metadatas"][0]["allowed_groups"] == "g1"  # nothing lost


def test_tied_chunks_come_back_in_chunk_id_order_whatever_the_insertion_order(tmp_path: Path):
    v = vectors(3)
    twins = [chunk("delta", p) for p in (2, 0, 1)]  # inserted out of order, all with the same vector
    for name, order in (("forward", [0, 1, 2]), ("reverse", [2, 1, 0])):
        store = VectorStore(name, path=tmp_path / name)
        for i in order:
            store.upsert([twins[i]], v[:1])
        store.upsert(CHUNKS[:1], v[1:2])
        assert [cid for cid, _ in store.query(v[0], 4)] == ["delta:000", "delta:001", "delta:002", "alpha:000"]


def free_port() -> int:
    """A port that was free a moment ago (another process may take it first: the fixture then retries)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_chroma(cli: str, folder: Path, log_path: Path) -> tuple[subprocess.Popen, int] | None:
    """Start a server and wait (bounded) until it accepts connections; None if it exited (e.g. its port was taken)."""
    port = free_port()
    with log_path.open("w") as log:
        process = subprocess.Popen([cli, "run", "--host", "127.0.0.1", "--port", str(port), "--path", str(folder)],
                                   stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300  # a bound against hanging on a busy machine, not a speed check
    while process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"the chroma server did not accept connections in 300 s: {log_path.read_text()[-500:]}")
            time.sleep(0.2)
            continue
        if process.poll() is None:  # the server that answered is ours, not one that got the port first
            return process, port
    return None


@pytest.fixture
def chroma_server(tmp_path: Path):
    cli = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    if not Path(cli).exists():
        pytest.skip("the chroma CLI is not installed")
    log = tmp_path / "chroma.log"
    for _ in range(3):
        started = _start_chroma(cli, tmp_path / "db", log)
        if started:
            break
    else:
        pytest.fail(f"the chroma server exited three times: {log.read_text()[-500:]}")
    process, port = started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_server_store(chroma_server: str):
    exercise(VectorStore("unit", url=chroma_server))
    assert VectorStore("unit", url=chroma_server).count() == 4


def test_importing_the_course_skips_the_iri_grammar_but_leaves_it_importable():
    code = ("import sys, ragcourse, jsonschema; assert 'chromadb' in sys.modules; "
            "assert 'rfc3987_syntax' not in sys.modules, 'the IRI grammar was built'; "
            "import rfc3987_syntax; print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-1000:]
