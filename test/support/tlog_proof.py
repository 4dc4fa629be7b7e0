"""An outsider's check of the gateway's proofs, written from the specs alone (none of the gateway's code):
c2sp.org/tlog-proof, c2sp.org/signed-note, c2sp.org/tlog-checkpoint, RFC 9162 section 2.1.

  python3 tlog_proof.py inclusion PROOF_FILE VKEY      prints the verified entry as JSON, exits 1 with a reason if not
  python3 tlog_proof.py consistency M N ROOT_M ROOT_N HASH...   (base64) exits 0 when the proof holds
"""
import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def fail(reason):
    print(reason)
    sys.exit(1)


def b64(text):
    raw = base64.b64decode(text, validate=True)
    if base64.b64encode(raw).decode() != text:
        fail(f"not canonical base64: {text}")
    return raw


def leaf(entry):
    return hashlib.sha256(b"\x00" + entry).digest()


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def verify_inclusion(index, size, leaf_hash, proof, root):
    # RFC 9162 2.1.3.2
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf_hash
    for p in proof:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = node(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(m, n, proof, root_m, root_n):
    # RFC 9162 2.1.4.2
    if m == n:
        return not proof and root_m == root_n
    if m == 0 or m > n or not proof:
        return False
    if m & (m - 1) == 0:
        proof = [root_m] + proof
    fn, sn = m - 1, n - 1
    while fn % 2 == 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr = node(c, fr)
            sr = node(c, sr)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == root_m and sr == root_n


def open_note(note, vkey):
    # c2sp.org/signed-note: text, a blank line, signature lines "— <name> <base64(keyid || sig)>"
    name, key_id_hex, key_b64 = vkey.split("+", 2)
    key = b64(key_b64)
    if key[0] != 1 or len(key) != 33:
        fail("the verifier key is not an Ed25519 key")
    key_id = hashlib.sha256(name.encode() + b"\n" + key).digest()[:4]
    if key_id.hex() != key_id_hex:
        fail("the verifier key's id does not match it")
    text, _, signatures = note.rpartition("\n\n")
    text += "\n"
    for line in signatures.splitlines():
        prefix = "\u2014 " + name + " "
        if not line.startswith(prefix):
            continue
        raw = b64(line[len(prefix):])
        if raw[:4] != key_id:
            continue
        try:
            Ed25519PublicKey.from_public_bytes(key[1:]).verify(raw[4:], text.encode())
            return text
        except InvalidSignature:
            fail("the checkpoint's signature does not verify")
    fail("the checkpoint is not signed by the key")


def inclusion(path, vkey):
    data = open(path, encoding="utf-8").read()
    head, _, checkpoint = data.partition("\n\n")
    lines = head.split("\n")
    if lines[0] != "c2sp.org/tlog-proof@v1":
        fail("not a tlog-proof file")
    extra = b64(lines[1][len("extra "):]) if lines[1].startswith("extra ") else None
    rest = lines[2:] if extra is not None else lines[1:]
    if not rest[0].startswith("index "):
        fail("no index line")
    index = int(rest[0][len("index "):])
    proof = [b64(h) for h in rest[1:]]
    text = open_note(checkpoint, vkey)
    origin, size, root = text.split("\n")[:3]
    if not verify_inclusion(index, int(size), leaf(extra), proof, b64(root)):
        fail("the inclusion proof does not hold")
    entry = json.loads(extra)
    if entry["seq"] != index + 1 or not origin.endswith("/" + entry["accountId"]):
        fail("the entry is not the log at that index of that origin")
    print(json.dumps({"origin": origin, "size": int(size), "index": index, "entry": entry}))


if __name__ == "__main__":
    if sys.argv[1] == "inclusion":
        inclusion(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "consistency":
        m, n = int(sys.argv[2]), int(sys.argv[3])
        ok = verify_consistency(m, n, [b64(h) for h in sys.argv[6:]], b64(sys.argv[4]), b64(sys.argv[5]))
        if not ok:
            fail("the consistency proof does not hold")
        print("consistent")
