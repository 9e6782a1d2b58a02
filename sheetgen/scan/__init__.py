"""Reading photographed or scanned sheets (`sheetgen scan`): sheetgen.scan.reader finds
the sheet and reads its boxes (with the modules docs/architecture.md lists),
sheetgen.scan.record makes one game record of the photos. (The generated photos the tests
and the bench read are drawn by bench/photos, outside the installed package.)"""
