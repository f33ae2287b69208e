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

package dev.triage.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the managed contender's share of a call goes, frame by frame, from a JFR recording of
 * {@link LoopbackFocus} (method sampling at 1 ms: a copy of the JDK's {@code profile.jfc} with
 * {@code jdk.ExecutionSample#period} set to {@code 1 ms}). A caller thread's sample inside a call belongs to the
 * managed contender when a Triage adapter or engine frame is on its stack, else to the plain one; each frame's
 * samples (counted once per sample, inlined frames included) divided by its contender's calls give its
 * microseconds per call. Prints the frames by how much more they cost the managed contender.
 * <p>
 * {@code java -cp benchmarks/target/benchmarks.jar dev.triage.bench.JfrPerCall focus.jfr MANAGED_CALLS PLAIN_CALLS
 * [ROWS]}, the calls as {@code LoopbackFocus} printed them ({@code requests / connections}). Java frames only:
 * time in the kernel or the JVM itself is not sampled this way.
 */
public final class JfrPerCall {

	private static final String[] MANAGED = { "dev.triage.feign.", "dev.triage.restclient.", "dev.triage.engine." };

	private JfrPerCall() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length < 3) {
			System.err.println("usage: JfrPerCall RECORDING.jfr MANAGED_CALLS PLAIN_CALLS [ROWS]");
			System.exit(2);
		}
		double[] calls = { Double.parseDouble(args[2]), Double.parseDouble(args[1]) };
		int rows = (args.length > 3) ? Integer.parseInt(args[3]) : 40;
		List<Map<String, Integer>> frames = List.of(new HashMap<>(), new HashMap<>());
		long[] samples = new long[2];
		double periodMicros = Double.NaN;
		try (RecordingFile recording = new RecordingFile(Path.of(args[0]))) {
			long sampleType = recording.readEventTypes()
				.stream()
				.filter((type) -> "jdk.ExecutionSample".equals(type.getName()))
				.mapToLong(EventType::getId)
				.findFirst()
				.orElse(-1);
			while (recording.hasMoreEvents()) {
				RecordedEvent event = recording.readEvent();
				String eventType = event.getEventType().getName();
				if ("jdk.ActiveSetting".equals(eventType) && event.getLong("id") == sampleType
						&& "period".equals(event.getString("name"))) {
					periodMicros = micros(event.getString("value"));
				}
				else if ("jdk.ExecutionSample".equals(eventType)) {
					sample(event, samples, frames);
				}
			}
		}
		if (Double.isNaN(periodMicros)) {
			System.err.println("the recording does not say how often it sampled (jdk.ExecutionSample#period)");
			System.exit(2);
		}
		System.out.printf(Locale.ROOT, "samples: managed %d, plain %d; sampled Java time per call: %.2f / %.2f µs%n",
				samples[1], samples[0], samples[1] * periodMicros / calls[1], samples[0] * periodMicros / calls[0]);
		System.out.println("µs per call, managed − plain, managed, plain, frame (its callees included)");
		Set<String> all = new HashSet<>(frames.get(0).keySet());
		all.addAll(frames.get(1).keySet());
		List<Row> costs = new ArrayList<>();
		for (String frame : all) {
			costs.add(new Row(frame, frames.get(1).getOrDefault(frame, 0) * periodMicros / calls[1],
					frames.get(0).getOrDefault(frame, 0) * periodMicros / calls[0]));
		}
		costs.sort(Comparator.comparingDouble(Row::extra).reversed());
		for (Row row : costs.subList(0, Math.min(rows, costs.size()))) {
			System.out.printf(Locale.ROOT, "%7.2f %7.2f %7.2f  %s%n", row.extra(), row.managed(), row.plain(), row.frame());
		}
	}

	/**
	 * Count a caller thread's sample taken inside a call for its contender, each frame once.
	 */
	private static void sample(RecordedEvent event, long[] samples, List<Map<String, Integer>> frames) {
		RecordedThread thread = event.getThread("sampledThread");
		RecordedStackTrace stack = event.getStackTrace();
		if (thread == null || thread.getJavaName() == null || !thread.getJavaName().startsWith("pool-")
				|| stack == null) {
			return;
		}
		Set<String> names = new HashSet<>();
		boolean inCall = false;
		boolean managed = false;
		for (RecordedFrame frame : stack.getFrames()) {
			String type = frame.getMethod().getType().getName();
			names.add(type + "." + frame.getMethod().getName());
			inCall |= type.startsWith(LoopbackComparison.class.getName());
			for (String prefix : MANAGED) {
				managed |= type.startsWith(prefix);
			}
		}
		if (!inCall) {
			return;
		}
		int contender = managed ? 1 : 0;
		samples[contender]++;
		for (String name : names) {
			frames.get(contender).merge(name, 1, Integer::sum);
		}
	}

	/**
	 * Return a JFR period setting ({@code "1 ms"}, {@code "20 ms"}, {@code "1 s"}) in microseconds.
	 */
	static double micros(String period) {
		String[] parts = period.trim().split("\\s+");
		double amount = Double.parseDouble(parts[0]);
		return switch ((parts.length > 1) ? parts[1] : "ms") {
			case "ns" -> amount / 1000;
			case "us" -> amount;
			case "s" -> amount * 1_000_000;
			default -> amount * 1000;
		};
	}

	/**
	 * A frame's microseconds per call, its callees included, for each contender.
	 */
	private record Row(String frame, double managed, double plain) {

		double extra() {
			return this.managed - this.plain;
		}

	}

}
