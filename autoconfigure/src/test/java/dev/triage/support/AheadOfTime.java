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

package dev.triage.support;

import java.nio.file.Path;

import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.context.aot.AbstractAotProcessor;

/**
 * Spring Boot's AOT processing of a test application, as {@code spring-boot-maven-plugin}'s {@code process-aot}
 * runs it: the application's {@code main} method is run up to its refresh, and the generated sources, resources
 * and classes are written below a directory.
 */
public final class AheadOfTime {

	private AheadOfTime() {
	}

	/**
	 * Process an application ahead of time.
	 * @param application the application class, with a {@code main} method that runs it
	 * @param output where the generated files go ({@code sources}, {@code resources}, {@code classes} below it)
	 * @param args the application's arguments
	 */
	public static void process(Class<?> application, Path output, String... args) {
		AbstractAotProcessor.Settings settings = AbstractAotProcessor.Settings.builder()
			.sourceOutput(output.resolve("sources"))
			.resourceOutput(output.resolve("resources"))
			.classOutput(output.resolve("classes"))
			.groupId("dev.triage")
			.artifactId("aot-test")
			.build();
		new SpringApplicationAotProcessor(application, settings, args).process();
	}

}
