/** A Jupyter notebook by its name, as Jupyter itself recognises one. */
export function isNotebookPath(filePath: string): boolean {
  return filePath.toLowerCase().endsWith(".ipynb");
}
