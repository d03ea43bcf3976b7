"""See a workbook the way a person prints it: LibreOffice turns it into a PDF, poppler reads
each page's text back and can render the pages as PNG images.

    python tools/print_preview.py collection.xlsx [--png OUT_FOLDER]

prints each page's size and orientation and its first lines, so that a page without the
header row, a sheet cut into column bands or a cut label shows at a glance; the tests in
tests/test_printing.py assert the same things. Needs Debian's libreoffice-calc-nogui (or
any LibreOffice with `soffice`) and poppler-utils (pdftotext, pdfinfo, pdftoppm).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import NamedTuple

TOOLS = ("soffice", "pdftotext", "pdfinfo", "pdftoppm")
CONVERT_SECONDS = 180


class Page(NamedTuple):
    number: int
    width: float  # points
    height: float
    text: str  # as pdftotext -layout lays it out

    @property
    def landscape(self) -> bool:
        return self.width > self.height


def missing_tools() -> list[str]:
    """The programs this needs that are not on the PATH."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def to_pdf(workbook: Path, out: Path) -> Path:
    """`workbook` printed to a PDF in the folder `out`, as LibreOffice prints it. Each call has
    its own LibreOffice profile, so that it never waits on (or breaks) another one running."""
    with tempfile.TemporaryDirectory(prefix="lo-profile-") as profile:
        subprocess.run(
            [
                "soffice",
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                str(out),
                str(workbook),
            ],
            check=True,
            capture_output=True,
            timeout=CONVERT_SECONDS,
        )
    pdf = out / f"{workbook.stem}.pdf"
    if not pdf.exists():
        raise RuntimeError(f"LibreOffice wrote no PDF for {workbook}")
    return pdf


def pages(pdf: Path) -> list[Page]:
    """Each page's size and text."""
    info = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "9999", str(pdf)], check=True, capture_output=True, text=True
    ).stdout
    sizes = [
        (float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info)
    ]
    found = []
    for number, (width, height) in enumerate(sizes, start=1):
        text = subprocess.run(
            ["pdftotext", "-layout", "-f", str(number), "-l", str(number), str(pdf), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        found.append(Page(number, width, height, text))
    return found


def preview(workbook: Path, out: Path) -> list[Page]:
    return pages(to_pdf(workbook, out))


def render_png(pdf: Path, folder: Path, resolution: int = 60) -> list[Path]:
    """Every page as a PNG image in `folder`, to look at."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-r", str(resolution), "-png", str(pdf), str(folder / pdf.stem)], check=True
    )
    return sorted(folder.glob(f"{pdf.stem}*.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workbook", type=Path)
    parser.add_argument("--png", type=Path, help="also render the pages as PNG images here")
    args = parser.parse_args()
    if missing_tools():
        parser.error(f"needs {', '.join(missing_tools())} (libreoffice-calc-nogui, poppler-utils)")
    with tempfile.TemporaryDirectory() as work:
        pdf = to_pdf(args.workbook.resolve(), Path(work))
        for page in pages(pdf):
            shape = "landscape" if page.landscape else "portrait"
            head = [line for line in page.text.splitlines() if line.strip()][:2]
            print(f"page {page.number}: {page.width:.0f}x{page.height:.0f} pt, {shape}")
            for line in head:
                print(f"    {line.strip()[:100]}")
        if args.png:
            for image in render_png(pdf, args.png):
                print(image)


if __name__ == "__main__":
    main()
