#!/bin/sh
# A development CA and a bundle-signing certificate for it, for tests and development images:
#   make-dev-ca.sh OUTDIR  →  OUTDIR/ca.cert.pem ca.key.pem signing.cert.pem signing.key.pem
# Every call makes new keys, so two OUTDIRs are two unrelated CAs (the "signed by another CA"
# tests). The production CA and signing key are made the same way but kept offline, never in
# the repository; only ca.cert.pem goes into an image, as /etc/rauc/keyring.pem.
# The signing certificate's extendedKeyUsage names codeSigning, which the system configs'
# `check-purpose=codesign` requires on the leaf, and emailProtection, which OpenSSL's default
# purpose (smimesign) requires where no config sets one: `rauc bundle --signing-keyring`.
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
out=$1
mkdir -p "$out"
umask 077
ext=$(mktemp)
trap 'rm -f "$ext" "$out/signing.csr.pem"' EXIT

# A random serial in the subject too, so two development CAs never share a name.
tag=$(openssl rand -hex 4)

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
  -subj "/O=Printyard development/CN=Printyard development CA $tag" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -addext "subjectKeyIdentifier=hash" \
  -keyout "$out/ca.key.pem" -out "$out/ca.cert.pem" 2>/dev/null

openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -subj "/O=Printyard development/CN=Printyard development bundle signing $tag" \
  -keyout "$out/signing.key.pem" -out "$out/signing.csr.pem" 2>/dev/null

cat >"$ext" <<'EOF'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=codeSigning,emailProtection
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
EOF
openssl x509 -req -in "$out/signing.csr.pem" -CA "$out/ca.cert.pem" -CAkey "$out/ca.key.pem" \
  -CAcreateserial -CAserial "$out/ca.serial" -days 1825 -extfile "$ext" -out "$out/signing.cert.pem" 2>/dev/null
rm -f "$out/ca.serial"
chmod 644 "$out/ca.cert.pem" "$out/signing.cert.pem"
echo "development CA in $out"
