package sources

import (
	"strings"
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

// BenchmarkMergeUnitContinuations is a hostile unit: one ExecStart= continued over 60,000
// lines that each read like a setting. Word positions are a binary search and the
// swallowed-line findings are capped, so this stays linear (was 10 s before both).
func BenchmarkMergeUnitContinuations(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[Service]\nExecStart=/bin/x \\\n")
	for i := 0; i < 60000; i++ {
		sb.WriteString("Environment=A=1 \\\n")
	}
	sb.WriteString("end\n")
	data := []byte(sb.String())
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		uf, _ := ParseUnit("/etc/systemd/system/k3s.service", data)
		_ = MergeUnit("k3s.service", []*UnitFile{uf})
	}
}
