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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Plays the tour once the app is up, prints the table, then keeps serving; with
 * {@code --demo.exit-after-tour=true} it exits 0 when every row agrees with the policy table, 1 when
 * one does not.
 */
public class TourRunner implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(TourRunner.class);

	private final Tour tour;

	private final ConfigurableApplicationContext context;

	private final boolean exitAfterTour;

	private final MeterRegistry meters;

	public TourRunner(Tour tour, ConfigurableApplicationContext context, boolean exitAfterTour, MeterRegistry meters) {
		this.tour = tour;
		this.context = context;
		this.exitAfterTour = exitAfterTour;
		this.meters = meters;
	}

	/**
	 * Return the process exit code for a played tour.
	 * @param rows the rows
	 * @return 0 when every row agrees with the policy table, 1 otherwise
	 */
	public static int exitCode(List<Row> rows) {
		return rows.stream().allMatch(Row::agrees) ? 0 : 1;
	}

	/** What the meters say, read back from the registry: each non-standard code and its attempts. */
	private String nonStandard() {
		Map<String, Double> byCode = new TreeMap<>();
		this.meters.find("triage.attempts").tag("class", "nonstandard").counters()
			.forEach((counter) -> byCode.merge(counter.getId().getTag("code"), counter.count(), Double::sum));
		StringBuilder text = new StringBuilder();
		byCode.forEach((code, count) -> text.append((text.length() > 0) ? ", " : "").append(code).append(" x")
			.append(count.intValue()));
		return (text.length() > 0) ? text.toString() : "none";
	}

	@Override
	public void run(ApplicationArguments args) {
		List<Row> rows = this.tour.play();
		long disagreeing = rows.stream().filter((row) -> !row.agrees()).count();
		System.out.println();
		System.out.println("Triage tour: every row is a real call; 'wire' is counted by the server that received it.");
		System.out.println();
		System.out.print(TourTable.render(rows));
		System.out.println();
		System.out.println("Non-standard statuses counted (triage.attempts, class=nonstandard): " + nonStandard());
		List<Row> skipped = rows.stream().filter((row) -> !row.played()).toList();
		String played = (rows.size() - skipped.size()) + " scenarios" + (skipped.isEmpty() ? "" : " played");
		System.out.println((disagreeing == 0) ? "All " + played + " behaved as the policy table says."
				: disagreeing + " of " + played + " behaved differently from the policy table.");
		// one line per reason: the rows of one scene are skipped together
		Map<String, List<String>> byReason = new LinkedHashMap<>();
		skipped.forEach((row) -> byReason
			.computeIfAbsent(row.skipped() + "; to play it: " + row.callerGot(), (reason) -> new ArrayList<>())
			.add("\"" + row.scenario() + "\""));
		byReason.forEach((reason, scenarios) -> System.out.println("Skipped " + String.join(", ", scenarios) + ": "
				+ reason));
		if (this.exitAfterTour) {
			int code = exitCode(rows);
			System.exit(SpringApplication.exit(this.context, () -> code));
		}
		logger.info("Tour done; still serving /actuator/triage, /actuator/circuitbreakers, /actuator/prometheus");
	}

}
