// Command genicons draws agent-guard's icons (a shield per tray state and
// the app icon) and writes them as PNG, plus PNG-in-ICO copies for the
// Windows tray. Run from the repo root: go run ./scripts/genicons
package main

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
)

type glyph int

const (
	glyphCheck glyph = iota
	glyphPause
	glyphBang
	glyphCross
)

type style struct {
	name       string
	fill, edge color.NRGBA
	glyph      glyph
}

var styles = []style{
	{"on", color.NRGBA{0x1f, 0x9d, 0x55, 0xff}, color.NRGBA{0x14, 0x6c, 0x3a, 0xff}, glyphCheck},
	{"off", color.NRGBA{0x8a, 0x93, 0x9b, 0xff}, color.NRGBA{0x5f, 0x67, 0x6e, 0xff}, glyphPause},
	{"pending", color.NRGBA{0xf0, 0x9a, 0x1a, 0xff}, color.NRGBA{0xb3, 0x6b, 0x05, 0xff}, glyphBang},
	// unguarded: a hook entry or a binary changed behind the guard's back.
	{"unguarded", color.NRGBA{0xd0, 0x2b, 0x2b, 0xff}, color.NRGBA{0x8c, 0x12, 0x12, 0xff}, glyphCross},
}

// shield reports whether (x, y) in the unit square lies inside the
// shield scaled by s around its centre.
func shield(x, y, s float64) bool {
	cx, cy := 0.5, 0.52
	x = cx + (x-cx)/s
	y = cy + (y-cy)/s
	const top, mid, bottom, half = 0.07, 0.52, 0.95, 0.39
	if y < top || y > bottom {
		return false
	}
	dx := math.Abs(x - 0.5)
	if y <= mid {
		// A gentle dip in the middle of the top edge and rounded corners.
		dip := 0.035 * (1 - (dx/half)*(dx/half))
		if y < top+dip {
			return false
		}
		r := 0.08
		if dx > half-r && y < top+r {
			ex, ey := dx-(half-r), (top+r)-y
			return ex*ex+ey*ey <= r*r && dx <= half
		}
		return dx <= half
	}
	t := (y - mid) / (bottom - mid)
	return dx <= half*math.Sqrt(1-t*t)*(1-0.25*t)
}

func distSeg(px, py, ax, ay, bx, by float64) float64 {
	vx, vy := bx-ax, by-ay
	t := ((px-ax)*vx + (py-ay)*vy) / (vx*vx + vy*vy)
	t = math.Max(0, math.Min(1, t))
	dx, dy := px-(ax+t*vx), py-(ay+t*vy)
	return math.Hypot(dx, dy)
}

func inGlyph(g glyph, x, y float64) bool {
	const w = 0.055 // half stroke width
	switch g {
	case glyphCheck:
		return distSeg(x, y, 0.31, 0.50, 0.45, 0.64) <= w || distSeg(x, y, 0.45, 0.64, 0.70, 0.36) <= w
	case glyphPause:
		return distSeg(x, y, 0.41, 0.34, 0.41, 0.66) <= w || distSeg(x, y, 0.59, 0.34, 0.59, 0.66) <= w
	case glyphBang:
		return distSeg(x, y, 0.5, 0.27, 0.5, 0.56) <= w*1.1 || math.Hypot(x-0.5, y-0.71) <= w*1.3
	case glyphCross:
		return distSeg(x, y, 0.34, 0.34, 0.66, 0.66) <= w*1.1 || distSeg(x, y, 0.66, 0.34, 0.34, 0.66) <= w*1.1
	}
	return false
}

func draw(size int, st style) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const ss = 6 // supersampling per axis
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	edgeScale := 1 - math.Max(0.06, 2.2/float64(size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/ss) / float64(size)
					if !shield(x, y, 1) {
						continue
					}
					c := st.edge
					if shield(x, y, edgeScale) {
						c = st.fill
						// A soft top-left highlight gives the flat shield some depth.
						k := 0.12 * (1 - y)
						c = color.NRGBA{mix(c.R, 255, k), mix(c.G, 255, k), mix(c.B, 255, k), 255}
						if inGlyph(st.glyph, x, y) {
							c = white
						}
					}
					r += float64(c.R)
					g += float64(c.G)
					b += float64(c.B)
					a++
				}
			}
			if a == 0 {
				continue
			}
			n := float64(ss * ss)
			img.SetNRGBA(px, py, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(255 * a / n)})
		}
	}
	return img
}

func mix(a, b uint8, k float64) uint8 { return uint8(float64(a)*(1-k) + float64(b)*k) }

func encode(img image.Image) []byte {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

// ico wraps one PNG in an ICO container (Vista+ reads PNG entries), which
// is what the Windows tray wants.
func ico(pngData []byte, size int) []byte {
	var buf bytes.Buffer
	le := binary.LittleEndian
	binary.Write(&buf, le, [3]uint16{0, 1, 1})
	dim := uint8(size)
	if size >= 256 {
		dim = 0
	}
	buf.Write([]byte{dim, dim, 0, 0})
	binary.Write(&buf, le, [2]uint16{1, 32})
	binary.Write(&buf, le, [2]uint32{uint32(len(pngData)), 22})
	buf.Write(pngData)
	return buf.Bytes()
}

func write(path string, data []byte) {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}
}

func main() {
	dir := "assets"
	for _, st := range styles {
		p := encode(draw(64, st))
		write(filepath.Join(dir, "tray_"+st.name+".png"), p)
		write(filepath.Join(dir, "tray_"+st.name+".ico"), ico(encode(draw(32, st)), 32))
	}
	write(filepath.Join(dir, "icon.png"), encode(draw(512, styles[0])))
}
