"""The benchmark paper's own numbers, as data: its Table 2 (the seed means of the selected models
on test, in percent) with the standard deviations of its Table 20, and Table 2's counts of the
fairness-without-harm zones; so that a report of a run on one of the seven data sets shows the
paper's cell beside ours.

Transcribed cell by cell with the tables' own row and column names ("Dataset", "Metric", the
method names as printed). A cell is "mean ± std": the mean from Table 2, the std from Table 20;
"–" where the paper has no result (OxonFair on FairFace, which it does not support for a
multi-class target). Table 2 and Table 20 print the same means except in three cells, all of
HAM10000's ERM column: Table 2 has Worst 84.67, EqOdd 86.79 and DP 81.48 where Table 20 (and the
ERM columns of Tables 9 and 22) have 84.68, 88.17 and 82.22. `TABLE20_MEANS` keeps Table 20's
values; `cell` answers Table 2's, the table the paper's text reads.

Source: "Benchmarking Bias Mitigation Toward Fairness Without Harm from Vision to LVLMs", Table 2
("Average utility and fairness results") and Appendix E, Table 20 ("Full results on seven
datasets with standard deviations for vision models").
"""

from __future__ import annotations

# Dataset, Metric, then one "mean ± std" cell per method (percent); Table 2's layout.
TABLE2 = """\
Dataset	Metric	ERM	RandAug	Mixup	Resampling	BM	FIS	Decoupled	LAFTR	FSCL	GapReg	MCDP	GroupDRO	DFR	OxonFair
CelebA	ACC	86.57 ± 0.18	86.72 ± 0.19	85.61 ± 0.27	86.35 ± 0.16	85.93 ± 0.14	83.05 ± 0.23	86.35 ± 0.17	86.55 ± 0.19	85.61 ± 0.14	85.62 ± 0.59	80.26 ± 0.75	86.12 ± 0.17	86.58 ± 0.15	86.49 ± 0.23
	Worst	83.76 ± 0.23	83.89 ± 0.33	82.74 ± 0.36	83.44 ± 0.22	82.86 ± 0.34	79.33 ± 0.50	83.46 ± 0.24	83.67 ± 0.33	82.56 ± 0.32	83.17 ± 0.40	77.13 ± 0.83	83.50 ± 0.23	83.78 ± 0.19	83.63 ± 0.30
	Gap	6.76 ± 0.34	6.80 ± 0.44	6.90 ± 0.29	6.98 ± 0.33	7.38 ± 0.50	8.94 ± 0.72	6.93 ± 0.42	6.93 ± 0.49	7.35 ± 0.59	5.90 ± 0.89	7.52 ± 1.23	6.31 ± 0.51	6.74 ± 0.41	6.87 ± 0.28
	EqOdd	81.91 ± 0.58	81.73 ± 1.12	87.08 ± 2.24	81.80 ± 0.71	78.84 ± 1.12	75.79 ± 1.84	80.59 ± 1.26	81.15 ± 1.66	85.45 ± 1.44	93.94 ± 5.76	89.63 ± 3.27	78.73 ± 1.30	81.83 ± 0.71	78.10 ± 2.53
	DP	67.20 ± 0.69	67.37 ± 0.42	70.83 ± 1.75	67.39 ± 0.31	66.91 ± 1.03	66.84 ± 1.84	66.68 ± 0.88	66.90 ± 1.22	69.72 ± 1.61	75.91 ± 4.47	93.11 ± 2.20	66.41 ± 1.16	67.30 ± 0.69	65.10 ± 1.80
UTKFace	ACC	92.75 ± 0.54	93.19 ± 0.31	92.62 ± 0.61	92.70 ± 0.53	93.33 ± 0.61	91.97 ± 0.46	91.68 ± 1.10	93.17 ± 0.27	93.52 ± 0.50	92.53 ± 0.88	92.49 ± 0.72	92.45 ± 0.39	92.73 ± 0.58	92.36 ± 0.86
	Worst	91.78 ± 0.61	92.19 ± 0.30	91.55 ± 0.74	91.60 ± 0.65	92.27 ± 0.81	90.91 ± 0.54	90.84 ± 0.85	92.05 ± 0.28	92.62 ± 0.40	91.70 ± 0.95	91.63 ± 1.14	91.41 ± 0.62	91.60 ± 0.93	91.11 ± 1.00
	Gap	2.26 ± 0.65	2.34 ± 0.59	2.50 ± 0.36	2.56 ± 0.43	2.47 ± 0.54	2.48 ± 0.38	1.97 ± 0.98	2.61 ± 0.31	2.10 ± 0.77	1.91 ± 0.59	2.00 ± 0.99	2.44 ± 0.99	2.63 ± 0.83	2.91 ± 1.04
	EqOdd	97.62 ± 0.53	97.62 ± 0.46	97.61 ± 0.41	97.49 ± 0.42	97.39 ± 0.50	97.51 ± 0.37	97.43 ± 0.44	97.44 ± 0.33	97.44 ± 1.29	98.10 ± 0.61	98.04 ± 0.97	97.06 ± 0.63	97.39 ± 0.87	96.41 ± 0.67
	DP	94.55 ± 1.20	94.83 ± 1.12	94.51 ± 1.46	95.34 ± 1.76	94.34 ± 1.52	94.69 ± 1.70	96.27 ± 2.42	95.44 ± 2.07	94.18 ± 2.11	95.30 ± 1.62	95.80 ± 0.64	94.78 ± 1.85	94.83 ± 1.42	94.68 ± 2.42
FairFace	ACC	66.76 ± 0.21	68.37 ± 0.30	65.40 ± 0.59	65.40 ± 0.19	65.66 ± 1.08	65.31 ± 0.51	67.03 ± 0.54	66.44 ± 0.78	65.42 ± 0.50	65.02 ± 1.02	66.06 ± 1.07	65.51 ± 0.52	63.20 ± 2.15	–
	Worst	66.34 ± 0.37	67.69 ± 0.35	64.50 ± 0.58	64.51 ± 0.41	65.20 ± 1.02	64.59 ± 0.37	66.61 ± 0.54	65.60 ± 0.86	64.64 ± 0.39	64.12 ± 1.28	65.62 ± 0.94	65.22 ± 0.46	62.45 ± 2.45	–
	Gap	0.87 ± 0.51	1.44 ± 0.62	1.93 ± 0.28	1.90 ± 0.59	0.97 ± 0.19	1.53 ± 0.57	0.87 ± 0.49	1.76 ± 0.40	1.66 ± 0.53	1.92 ± 0.94	0.90 ± 0.48	0.60 ± 0.58	1.59 ± 0.68	–
	EqOdd	96.22 ± 0.57	96.14 ± 0.08	96.55 ± 0.27	96.83 ± 0.33	95.70 ± 0.34	95.88 ± 0.32	95.14 ± 0.75	94.73 ± 1.04	97.05 ± 0.45	96.15 ± 0.12	97.85 ± 0.25	96.31 ± 0.73	95.81 ± 0.25	–
	DP	97.61 ± 0.41	97.55 ± 0.24	97.62 ± 0.24	97.80 ± 0.21	97.30 ± 0.21	97.40 ± 0.16	96.88 ± 0.43	96.86 ± 0.58	98.10 ± 0.11	97.51 ± 0.22	98.50 ± 0.23	97.47 ± 0.37	97.43 ± 0.10	–
Facet	ACC	67.55 ± 0.37	67.83 ± 0.69	67.86 ± 0.44	67.56 ± 0.24	65.87 ± 1.19	67.60 ± 0.43	67.33 ± 0.74	70.74 ± 7.49	67.79 ± 0.44	67.01 ± 0.24	67.91 ± 0.35	67.20 ± 0.24	66.87 ± 0.47	68.09 ± 0.41
	Worst	64.25 ± 0.97	64.94 ± 0.96	64.54 ± 1.01	64.13 ± 0.51	62.67 ± 0.91	63.53 ± 0.92	62.60 ± 1.08	68.60 ± 8.56	65.02 ± 0.94	62.22 ± 1.45	64.21 ± 1.22	64.07 ± 0.82	63.10 ± 1.51	64.11 ± 1.66
	Gap	4.31 ± 1.13	3.78 ± 0.97	4.33 ± 1.43	4.48 ± 0.42	4.18 ± 0.55	5.33 ± 1.34	6.17 ± 0.58	2.82 ± 1.39	3.61 ± 0.79	6.26 ± 1.66	4.84 ± 1.53	4.08 ± 0.87	4.92 ± 1.93	5.21 ± 1.71
	EqOdd	96.47 ± 1.23	96.68 ± 1.02	97.50 ± 1.22	94.37 ± 0.82	96.32 ± 1.77	98.10 ± 1.31	88.04 ± 1.87	96.38 ± 2.81	96.50 ± 1.65	98.92 ± 1.01	98.23 ± 0.97	93.76 ± 1.04	96.82 ± 0.96	83.40 ± 9.30
	DP	95.40 ± 1.12	95.91 ± 0.97	96.71 ± 1.16	93.96 ± 0.67	95.09 ± 1.85	97.84 ± 1.24	87.30 ± 1.73	95.00 ± 2.97	95.66 ± 1.38	98.73 ± 1.40	98.46 ± 1.33	93.16 ± 1.17	96.09 ± 1.12	83.95 ± 9.32
HAM10000	AUC	88.35 ± 1.83	89.09 ± 1.26	86.51 ± 2.44	87.75 ± 2.21	89.54 ± 1.38	85.97 ± 1.09	87.87 ± 2.02	86.71 ± 1.79	89.40 ± 2.52	84.97 ± 3.18	82.96 ± 1.84	87.66 ± 2.72	87.06 ± 0.93	88.46 ± 2.01
	Worst	84.67 ± 2.02	84.67 ± 3.29	82.31 ± 2.33	84.77 ± 3.34	86.49 ± 1.49	82.98 ± 1.64	84.04 ± 3.62	81.68 ± 3.62	85.89 ± 3.15	82.57 ± 3.66	80.29 ± 1.70	83.98 ± 3.00	82.49 ± 2.48	83.83 ± 3.46
	Gap	4.11 ± 2.08	4.99 ± 3.70	4.14 ± 2.75	3.52 ± 2.68	3.04 ± 0.90	3.11 ± 1.85	5.17 ± 2.73	6.18 ± 2.99	3.71 ± 1.47	3.07 ± 2.34	3.10 ± 2.25	4.98 ± 2.51	5.30 ± 2.19	5.46 ± 2.89
	EqOdd	86.79 ± 3.10	88.43 ± 4.05	91.14 ± 5.43	91.84 ± 3.32	85.65 ± 4.07	94.05 ± 2.34	77.52 ± 14.21	93.28 ± 6.23	84.57 ± 2.32	98.15 ± 3.71	99.52 ± 0.95	90.94 ± 5.33	91.25 ± 4.95	99.27 ± 0.60
	DP	81.48 ± 4.78	84.73 ± 3.36	88.54 ± 8.88	85.05 ± 2.22	78.41 ± 4.89	88.58 ± 2.72	75.15 ± 11.56	91.00 ± 6.42	77.64 ± 4.51	96.74 ± 6.52	99.58 ± 0.85	83.86 ± 5.70	84.65 ± 4.61	99.34 ± 0.58
Fitz17k	AUC	89.74 ± 1.00	91.29 ± 0.52	90.62 ± 0.93	90.76 ± 0.72	91.02 ± 0.58	88.34 ± 0.76	89.63 ± 0.49	90.95 ± 0.50	90.71 ± 1.25	89.59 ± 1.10	91.65 ± 0.69	90.72 ± 0.91	89.99 ± 0.86	89.56 ± 0.99
	Worst	88.39 ± 1.05	90.15 ± 0.96	89.38 ± 1.86	88.99 ± 1.95	89.93 ± 0.84	87.02 ± 1.08	88.45 ± 1.31	89.67 ± 1.12	89.77 ± 1.10	88.52 ± 2.61	90.49 ± 0.81	90.06 ± 0.89	88.57 ± 0.50	88.40 ± 1.03
	Gap	2.92 ± 1.14	2.51 ± 0.99	2.43 ± 1.42	3.62 ± 2.19	2.34 ± 1.37	3.06 ± 1.98	2.55 ± 2.15	2.87 ± 2.02	2.22 ± 0.91	1.84 ± 2.01	2.87 ± 1.11	1.92 ± 1.07	2.93 ± 1.48	3.06 ± 1.08
	EqOdd	94.92 ± 2.48	95.61 ± 2.29	96.20 ± 3.05	95.27 ± 3.26	94.99 ± 1.87	95.17 ± 2.41	94.09 ± 3.28	93.68 ± 3.40	97.45 ± 0.79	95.47 ± 1.48	95.68 ± 2.68	94.36 ± 2.39	94.30 ± 1.11	99.26 ± 0.52
	DP	94.46 ± 1.40	94.53 ± 1.06	94.51 ± 1.37	93.31 ± 2.28	93.66 ± 2.13	95.60 ± 1.94	94.06 ± 1.91	94.46 ± 1.32	95.32 ± 1.40	96.42 ± 2.21	96.14 ± 2.08	95.24 ± 1.59	95.26 ± 1.19	99.88 ± 0.09
Waterbirds	ACC	85.63 ± 1.36	86.09 ± 1.40	87.67 ± 1.06	87.35 ± 0.79	88.20 ± 0.96	83.72 ± 0.85	74.64 ± 2.98	85.72 ± 1.48	86.83 ± 2.08	86.45 ± 3.89	85.98 ± 0.86	85.46 ± 1.48	89.83 ± 1.44	90.27 ± 0.17
	Worst	84.20 ± 0.94	84.52 ± 2.63	85.99 ± 1.53	84.85 ± 0.74	85.96 ± 1.06	82.67 ± 2.10	64.45 ± 5.72	83.94 ± 2.13	86.28 ± 2.34	85.72 ± 4.08	84.83 ± 1.36	84.45 ± 1.71	89.09 ± 1.71	89.52 ± 0.30
	Gap	2.87 ± 0.85	3.14 ± 2.52	3.36 ± 1.72	4.98 ± 0.34	4.48 ± 0.59	2.09 ± 2.92	20.38 ± 5.56	3.56 ± 1.18	1.10 ± 0.55	1.47 ± 0.87	2.31 ± 1.37	2.02 ± 1.39	1.47 ± 0.60	1.50 ± 0.92
	EqOdd	66.53 ± 3.31	68.99 ± 2.52	81.42 ± 4.38	90.87 ± 1.28	77.21 ± 3.25	65.89 ± 2.13	47.31 ± 4.15	68.22 ± 2.96	90.00 ± 1.82	87.48 ± 8.82	72.97 ± 3.35	67.31 ± 3.81	97.79 ± 0.75	94.99 ± 1.90
	DP	77.67 ± 3.52	77.25 ± 3.02	86.00 ± 4.59	90.93 ± 1.01	81.78 ± 2.33	75.30 ± 1.84	52.30 ± 5.81	77.47 ± 4.11	92.53 ± 1.37	91.39 ± 7.13	80.70 ± 1.77	76.91 ± 3.62	98.61 ± 0.90	97.38 ± 0.92
"""

# Where Table 20's mean differs from Table 2's: (Dataset, Metric, method) -> Table 20's mean.
TABLE20_MEANS = {("HAM10000", "Worst", "ERM"): 84.68, ("HAM10000", "EqOdd", "ERM"): 88.17,
                 ("HAM10000", "DP", "ERM"): 82.22}

# Table 2's "FWH Selection" rows: method -> (validation, test) counts of the selected models in
# the zones Optimal | Sub-optimal | Degradation | Unwanted over the seven data sets.
ZONES = {
    "RandAug": ((7, 0, 0, 0), (7, 0, 0, 0)), "Mixup": ((4, 1, 2, 0), (3, 0, 3, 1)),
    "Resampling": ((3, 2, 2, 0), (2, 1, 2, 2)), "BM": ((3, 2, 2, 0), (3, 1, 3, 0)),
    "FIS": ((2, 1, 4, 0), (0, 0, 6, 1)), "Decoupled": ((1, 2, 4, 0), (1, 1, 3, 2)),
    "LAFTR": ((4, 3, 0, 0), (3, 0, 1, 3)), "FSCL": ((6, 0, 1, 0), (4, 1, 2, 0)),
    "GapReg": ((4, 1, 2, 0), (0, 2, 5, 0)), "MCDP": ((4, 1, 2, 0), (2, 0, 4, 1)),
    "GroupDRO": ((2, 3, 2, 0), (1, 1, 5, 0)), "DFR": ((7, 0, 0, 0), (2, 1, 3, 1)),
    "OxonFair": ((0, 0, 6, 0), (1, 1, 2, 2)),
}

# The paper's names -> ours.
METHODS = {"ERM": "erm", "RandAug": "randaug", "Mixup": "mixup", "Resampling": "resampling",
           "BM": "bias_mimicking", "FIS": "fis", "Decoupled": "decoupled", "LAFTR": "laftr",
           "FSCL": "fscl", "GapReg": "gapreg", "MCDP": "mcdp", "GroupDRO": "groupdro",
           "DFR": "dfr", "OxonFair": "oxonfair"}
DATASETS = {"CelebA": ("celeba", "celeba_tfds"), "UTKFace": ("utkface",),
            "FairFace": ("fairface",), "Facet": ("facet",), "HAM10000": ("ham10000",),
            "Fitz17k": ("fitz17k",), "Waterbirds": ("waterbirds",)}
METRICS = {"ACC": "utility", "AUC": "utility", "Worst": "worst", "Gap": "gap",
           "EqOdd": "eqodd", "DP": "dp"}


def _parse() -> dict:
    lines = TABLE2.strip("\n").split("\n")
    head = lines[0].split("\t")
    assert head[:2] == ["Dataset", "Metric"], head
    out, dataset = {}, None
    for line in lines[1:]:
        dataset_cell, metric, *cells = line.split("\t")
        dataset = dataset_cell or dataset
        assert len(cells) == len(head) - 2, line
        for method, text in zip(head[2:], cells):
            if text == "–":
                continue
            mean, std = text.split(" ± ")
            out[(dataset, metric, method)] = (float(mean), float(std))
    return out


CELLS = _parse()  # (Dataset, Metric, method) -> (mean, std), percent, as printed


def paper_dataset(data_name: str) -> str | None:
    """The paper's name for one of our data sets ("ham10000" -> "HAM10000"), or None when it is
    not one of the seven."""
    return next((paper for paper, ours in DATASETS.items() if data_name in ours), None)


def cell(data_name: str, metric: str, method: str):
    """(mean, std) as fractions of the paper's cell for our data set, metric ("utility", "worst",
    "gap", "eqodd", "dp") and method names; None where the paper has none."""
    dataset = paper_dataset(data_name)
    paper_method = next((p for p, ours in METHODS.items() if ours == method), None)
    if dataset is None or paper_method is None:
        return None
    for (d, m, meth), (mean, std) in CELLS.items():
        if d == dataset and meth == paper_method and METRICS[m] == metric:
            return mean / 100.0, std / 100.0
    return None
