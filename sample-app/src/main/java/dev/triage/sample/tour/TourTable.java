/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.triage.sample.tour;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders tour rows as a plain text table.
 */
public final class TourTable {

	private static final String[] HEADERS = { "scenario", "upstream did", "class", "wire", "waited", "breaker after",
			"fallback", "caller got", "agrees" };

	private TourTable() {
	}

	public static String render(List<Row> rows) {
		List<String[]> cells = new ArrayList<>();
		cells.add(HEADERS);
		for (Row row : rows) {
			cells.add(new String[] { row.scenario(), row.upstreamDid(), row.failureClass(), Integer.toString(row.wire()),
					row.waited().toMillis() + "ms", row.breakerAfter(), row.fallback(), row.callerGot(),
					!row.agrees() ? "NO: " + String.join("; ", row.disagreements()) : row.played() ? "yes" : "skipped" });
		}
		int[] widths = new int[HEADERS.length];
		for (String[] line : cells) {
			for (int i = 0; i < line.length; i++) {
				widths[i] = Math.max(widths[i], line[i].length());
			}
		}
		StringBuilder out = new StringBuilder();
		for (int n = 0; n < cells.size(); n++) {
			String[] line = cells.get(n);
			for (int i = 0; i < line.length; i++) {
				out.append((i == 0) ? "| " : " | ").append(pad(line[i], widths[i]));
			}
			out.append(" |\n");
			if (n == 0) {
				for (int i = 0; i < widths.length; i++) {
					out.append((i == 0) ? "|-" : "-|-").append("-".repeat(widths[i]));
				}
				out.append("-|\n");
			}
		}
		return out.toString();
	}

	private static String pad(String text, int width) {
		return text + " ".repeat(width - text.length());
	}

}
