package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMySQLTLS serves the MySQL port with a self-signed certificate:
// go-sql-driver with tls=skip-verify (which fails when the server offers
// no TLS) and a plain connection both work.
func TestMySQLTLS(t *testing.T) {
	cert, key := selfSigned(t)
	_, addr := startMySQLServer(t, "--mysql-tls-cert", cert, "--mysql-tls-key", key)
	// The MySQL port may open a moment after the HTTP port answers.
	waitFor(t, func() bool { return openDB(t, addr, "", "").Ping() == nil })
	for _, params := range []string{"tls=skip-verify", "tls=false"} {
		db := openDB(t, addr, "", params)
		rows, err := db.Query("SELECT 1 + 1")
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		if got := scanStrings(t, rows); got[0][0] != "2" {
			t.Fatalf("%s: got %v", params, got)
		}
	}
	// Without the flags the server offers no TLS.
	_, plain := startMySQLServer(t)
	waitFor(t, func() bool { return openDB(t, plain, "", "").Ping() == nil })
	if _, err := openDB(t, plain, "", "tls=skip-verify").Exec("SELECT 1"); err == nil {
		t.Fatal("tls=skip-verify against a server without TLS succeeded")
	}
}

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// as PEM files and returns their paths.
func selfSigned(t *testing.T) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "loadgw test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}
