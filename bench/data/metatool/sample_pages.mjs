// Which pages of MetaTool's dataset/data/all_clean_data.csv (2 769 954 characters, read in pages of
// 16 000 characters) the single-tool sample was taken from: 30 distinct page numbers in 0–172 drawn
// with mulberry32(19), sorted. From each page (offset = page × 16 000) the first 20 complete lines
// were kept (the partial line the page starts in is skipped, except on page 0, whose header is).
// Run: node sample_pages.mjs
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(19);
const pages = new Set();
while (pages.size < 30) pages.add(Math.floor(random() * 173));
console.log([...pages].sort((a, b) => a - b).map((p) => p * 16000).join(' '));
