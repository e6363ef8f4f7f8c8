package helmrelease

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxRelease bounds a release's JSON after gunzip. A Secret holds at most 1 MiB (etcd's
// request limit), and Helm's JSON of a large chart (kube-prometheus-stack, with every
// template and CRD) is a few MiB; 32 MiB leaves room and stops a gzip bomb, which would
// otherwise grow a few hundred KiB of data into gigabytes.
const MaxRelease = 32 << 20

// maxText bounds data.release as kubectl prints it: a Secret's 1 MiB, base64 twice, with
// room.
const maxText = 4 << 20

// Release is what k3sconf reads of a decoded release (helm pkg/release Release, Info,
// chart Metadata; the same JSON in Helm 3 and Helm 4's release v1).
type Release struct {
	Name, Namespace string
	Version         int
	// Status, Description and LastDeployed are info.status, info.description and
	// info.last_deployed.
	Status, Description, LastDeployed string
	// ChartName and ChartVersion are chart.metadata.name and .version.
	ChartName, ChartVersion string
	// Config is the user-supplied values (`helm get values`): the values files and --set
	// merged, before the chart's defaults. ChartValues are the chart's defaults at that
	// revision.
	Config      map[string]any
	ChartValues map[string]any
}

// TooLargeError is returned for a release whose JSON exceeds [MaxRelease] after gunzip.
type TooLargeError struct{ Limit int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the release's JSON is more than k3sconf's limit of %d MiB after gunzip (a gzip bomb, or not a Helm release); it was not read further", e.Limit>>20)
}

// ErrNoData is returned for a release Secret without data.release.
var ErrNoData = errors.New("the Secret has no data.release")

// Decode reads the revision's data.release.
func (r *Revision) Decode() (*Release, error) {
	if r.data == "" {
		return nil, ErrNoData
	}
	return Decode(r.data)
}

// Decode reads data.release as kubectl prints it: base64 (the Secret's data) of Helm's
// encoding, base64 of gzipped JSON (helm pkg/storage/driver/util.go encodeRelease,
// decodeRelease; a release stored before Helm compressed them is plain JSON). Text given
// without kubectl's layer (Helm's own encoding) is read too.
func Decode(text string) (*Release, error) {
	if len(text) > maxText {
		return nil, fmt.Errorf("data.release is %d bytes, more than a Secret can hold", len(text))
	}
	b, err := b64(text)
	if err != nil {
		return nil, fmt.Errorf("data.release is not base64: %w", err)
	}
	// kubectl's layer holds Helm's base64 text; without it, b is already gzip or JSON.
	if !bytes.HasPrefix(b, magicGzip) && !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		if inner, err := b64(string(b)); err == nil {
			b = inner
		} else {
			return nil, fmt.Errorf("data.release is not Helm's encoding (base64 of gzipped JSON): %w", err)
		}
	}
	if bytes.HasPrefix(b, magicGzip) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("data.release is not gzip: %w", err)
		}
		out, err := io.ReadAll(io.LimitReader(zr, MaxRelease+1))
		if err != nil {
			return nil, fmt.Errorf("data.release does not gunzip: %w", err)
		}
		if len(out) > MaxRelease {
			return nil, &TooLargeError{Limit: MaxRelease}
		}
		b = out
	}
	var raw struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
		Version   int    `json:"version"`
		Info      struct {
			Status       string `json:"status"`
			Description  string `json:"description"`
			LastDeployed string `json:"last_deployed"`
		} `json:"info"`
		Chart struct {
			Metadata struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"metadata"`
			Values map[string]any `json:"values"`
		} `json:"chart"`
		Config map[string]any `json:"config"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("the release is not Helm's JSON: %w", err)
	}
	return &Release{Name: raw.Name, Namespace: raw.Namespace, Version: raw.Version, Status: raw.Info.Status,
		Description: raw.Info.Description, LastDeployed: raw.Info.LastDeployed,
		ChartName: raw.Chart.Metadata.Name, ChartVersion: raw.Chart.Metadata.Version,
		Config: raw.Config, ChartValues: raw.Chart.Values}, nil
}

var magicGzip = []byte{0x1f, 0x8b, 0x08}

// b64 decodes standard base64, padded or not, ignoring line breaks (a hand-edited or
// folded document).
func b64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	return base64.StdEncoding.WithPadding(base64.NoPadding).DecodeString(strings.TrimRight(s, "="))
}
