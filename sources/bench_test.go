package sources

import (
	"testing"

	"github.com/k3sconf/k3sconf/internal/benchnode"
)

// Stage benchmarks: each reader on what a small node has (README, Performance).

func BenchmarkParseUnit(b *testing.B) {
	data := []byte(benchnode.Unit)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		files := []*UnitFile{}
		uf, _ := ParseUnit("/etc/systemd/system/k3s.service", data)
		files = append(files, uf)
		_ = MergeUnit("k3s.service", files)
	}
}

func BenchmarkParseEnvFile(b *testing.B) {
	data := []byte(benchnode.EnvFile)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		_, _ = ParseEnvFile("/etc/systemd/system/k3s.service.env", data)
	}
}

// BenchmarkParseConfig is YAML with positions and YAML 1.1 typing, on a 25-key drop-in.
func BenchmarkParseConfig(b *testing.B) {
	data := []byte(benchnode.Config(7, 25))
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, _, err := ParseConfig("/etc/rancher/k3s/config.yaml.d/7.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}
