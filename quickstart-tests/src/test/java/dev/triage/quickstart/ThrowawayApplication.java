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

package dev.triage.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A new application outside this build: Spring Boot's parent for this line, a Maven snippet taken from the
 * documentation, and the Quick start's code and YAML. A nested Maven builds it with a local repository that holds
 * Triage's artifacts as this reactor built them (the invoker plugin's install, see the module's pom) and reads
 * everything else from the user's local repository as a remote one (releases only, so a stale Triage snapshot
 * there is never seen), then from Maven Central.
 */
final class ThrowawayApplication {

	static final Path ROOT = Path.of(System.getProperty("triage.root"));

	static final String HEADING = System.getProperty("triage.quickstart.heading");

	static final String STARTER = System.getProperty("triage.quickstart.starter");

	static final String BOM = System.getProperty("triage.quickstart.bom");

	private static final String BOOT_VERSION = System.getProperty("triage.quickstart.boot-version");

	private final Path dir;

	private ThrowawayApplication(Path dir) {
		this.dir = dir;
	}

	private Path sources() {
		return this.dir.resolve("src/main/java/dev/triage/quickstart");
	}

	/**
	 * Adds a source file of package {@code dev.triage.quickstart}, before {@link #build()}.
	 */
	void add(String file, String source) throws IOException {
		Files.writeString(sources().resolve(file), source, StandardCharsets.UTF_8);
	}

	/**
	 * Writes the application: its pom is the parent plus {@code snippet}, with {@code extraDependencies} added to
	 * the snippet's own {@code <dependencies>}.
	 */
	static ThrowawayApplication create(String name, String snippet, String extraDependencies) throws IOException {
		ThrowawayApplication application = create(name, snippet, extraDependencies, Map.of());
		Path quickStart = ROOT.resolve("autoconfigure/src/test/java/dev/triage/quickstart");
		for (String source : List.of("ShopApplication.java", "InventoryClient.java")) {
			Files.copy(quickStart.resolve(source), application.sources().resolve(source),
					StandardCopyOption.REPLACE_EXISTING);
		}
		Files.copy(ROOT.resolve("autoconfigure/src/test/resources/quickstart/application.yml"),
				application.dir.resolve("src/main/resources/application.yml"), StandardCopyOption.REPLACE_EXISTING);
		return application;
	}

	/**
	 * Writes an application of its own code: {@code sources} maps a file name to its text, in package
	 * {@code dev.triage.quickstart}.
	 */
	static ThrowawayApplication create(String name, String snippet, String extraDependencies,
			Map<String, String> sources) throws IOException {
		Path dir = Path.of(System.getProperty("triage.target")).resolve(name);
		Files.createDirectories(dir.resolve("src/main/java/dev/triage/quickstart"));
		Files.createDirectories(dir.resolve("src/main/resources"));
		Files.createDirectories(dir.resolve("target"));
		for (Map.Entry<String, String> source : sources.entrySet()) {
			Files.writeString(dir.resolve("src/main/java/dev/triage/quickstart").resolve(source.getKey()),
					source.getValue(), StandardCharsets.UTF_8);
		}
		String pomSnippet = snippet;
		if (!extraDependencies.isEmpty()) {
			int end = snippet.lastIndexOf("</dependencies>");
			assertThat(end).as("the snippet has <dependencies>").isNotNegative();
			pomSnippet = snippet.substring(0, end) + extraDependencies + "\n" + snippet.substring(end);
		}
		Files.writeString(dir.resolve("pom.xml"), """
				<?xml version="1.0" encoding="UTF-8"?>
				<project xmlns="http://maven.apache.org/POM/4.0.0"
				         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
				         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
				  <modelVersion>4.0.0</modelVersion>
				  <parent>
				    <groupId>org.springframework.boot</groupId>
				    <artifactId>spring-boot-starter-parent</artifactId>
				    <version>%s</version>
				    <relativePath/>
				  </parent>
				  <groupId>com.example</groupId>
				  <artifactId>%s</artifactId>
				  <version>1.0.0</version>
				  <properties>
				    <java.version>17</java.version>
				  </properties>
				%s
				</project>
				""".formatted(BOOT_VERSION, name, pomSnippet), StandardCharsets.UTF_8);
		String userRepository = Path.of(System.getProperty("triage.user-repository")).toUri().toString();
		Files.writeString(dir.resolve("settings.xml"), """
				<settings>
				  <profiles>
				    <profile>
				      <id>user-repository</id>
				      <repositories>
				        <repository>
				          <id>user-repository</id>
				          <url>%1$s</url>
				          <snapshots><enabled>false</enabled></snapshots>
				        </repository>
				      </repositories>
				      <pluginRepositories>
				        <pluginRepository>
				          <id>user-repository</id>
				          <url>%1$s</url>
				          <snapshots><enabled>false</enabled></snapshots>
				        </pluginRepository>
				      </pluginRepositories>
				    </profile>
				  </profiles>
				  <activeProfiles>
				    <activeProfile>user-repository</activeProfile>
				  </activeProfiles>
				</settings>
				""".formatted(userRepository), StandardCharsets.UTF_8);
		return new ThrowawayApplication(dir);
	}

	/**
	 * Compiles the application and writes what it resolved at runtime: the list ({@code dependencies.txt}) and
	 * the class path ({@code classpath.txt}). Fails with the end of Maven's log when the build fails.
	 */
	List<String> build() throws Exception {
		Path home = Path.of(System.getProperty("maven.home"));
		String mvn = (File.separatorChar == '\\') ? "mvn.cmd" : "mvn";
		Path target = this.dir.resolve("target").toAbsolutePath();
		List<String> command = List.of(home.resolve("bin").resolve(mvn).toString(), "-B", "-ntp", "-s",
				this.dir.resolve("settings.xml").toString(),
				"-Dmaven.repo.local=" + Path.of(System.getProperty("triage.it-repository")).toAbsolutePath(),
				"-DincludeScope=runtime", "compile",
				"org.apache.maven.plugins:maven-dependency-plugin:list",
				"-DoutputFile=" + target.resolve("dependencies.txt"),
				"org.apache.maven.plugins:maven-dependency-plugin:build-classpath",
				"-Dmdep.outputFile=" + target.resolve("classpath.txt"));
		run(command, this.dir.resolve("build.log"), null);
		return Files.readAllLines(target.resolve("dependencies.txt"));
	}

	/**
	 * Starts the application's main class (not a web application, its client pointing at a closed port) and
	 * returns what it printed once it has either started or failed to.
	 */
	String start() throws Exception {
		return start("ShopApplication", "Started ShopApplication", "--inventory.url=http://127.0.0.1:9");
	}

	/**
	 * Starts a main class of package {@code dev.triage.quickstart} (not a web application) and returns what it
	 * printed once it printed {@code ready} or ended.
	 */
	String start(String mainClass, String ready, String... args) throws Exception {
		Path target = this.dir.resolve("target").toAbsolutePath();
		String classPath = target.resolve("classes") + File.pathSeparator
				+ Files.readString(target.resolve("classpath.txt")).strip();
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		List<String> command = new ArrayList<>(List.of(java.toString(), "-cp", classPath,
				"dev.triage.quickstart." + mainClass, "--spring.main.web-application-type=none"));
		command.addAll(List.of(args));
		return run(command, this.dir.resolve("start.log"), ready);
	}

	/**
	 * Runs a command until it exits, or until its output shows {@code ready} (then it is stopped). A build that
	 * fails fails the test with the end of its output.
	 */
	private String run(List<String> command, Path logFile, String ready) throws Exception {
		Process process = new ProcessBuilder(command).directory(this.dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(logFile.toFile())
			.start();
		long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
		try {
			while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
				if (ready != null && Files.readString(logFile).contains(ready)) {
					return Files.readString(logFile);
				}
				assertThat(System.nanoTime() - giveUp).as("%s in %s still running after 10 minutes:%n%s",
						command.get(0), this.dir, tail(Files.readString(logFile))).isNegative();
			}
		}
		finally {
			process.destroy();
			process.waitFor(30, TimeUnit.SECONDS);
		}
		String log = Files.readString(logFile);
		if (ready == null) {
			assertThat(process.exitValue()).as("%s in %s:%n%s", command.get(0), this.dir, tail(log)).isZero();
		}
		return log;
	}

	/**
	 * The {@code xml} code blocks of a markdown text under {@code heading} (up to the next heading of the same or
	 * a higher level), within the section {@code section} when it is not null.
	 */
	static String xmlUnder(String markdown, String section, String heading) {
		String text = markdown;
		if (section != null) {
			text = part(markdown, section);
		}
		StringBuilder xml = new StringBuilder();
		Matcher blocks = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL).matcher(part(text, heading));
		while (blocks.find()) {
			xml.append(blocks.group(1));
		}
		assertThat(xml).as("Maven snippet under '%s'", heading).isNotEmpty();
		return xml.toString();
	}

	private static String part(String markdown, String heading) {
		int start = markdown.indexOf("\n" + heading + "\n");
		assertThat(start).as("a heading '%s'", heading).isNotNegative();
		String level = heading.substring(0, heading.indexOf(' ') + 1);
		int end = start + 1;
		do {
			end = markdown.indexOf("\n#", end + 1);
		}
		while (end >= 0 && !isHeadingAtOrAbove(markdown.substring(end + 1), level.length() - 1));
		return markdown.substring(start, (end < 0) ? markdown.length() : end);
	}

	private static boolean isHeadingAtOrAbove(String line, int level) {
		int hashes = 0;
		while (hashes < line.length() && line.charAt(hashes) == '#') {
			hashes++;
		}
		return hashes <= level && hashes < line.length() && line.charAt(hashes) == ' ';
	}

	/**
	 * The distinct versions of a group's artifacts in {@code dependency:list} output.
	 */
	static List<String> versions(List<String> resolved, String group) {
		List<String> versions = new ArrayList<>();
		Pattern artifact = Pattern.compile("^\\s*" + Pattern.quote(group) + ":[^:]+:jar:([^:]+):");
		for (String line : resolved) {
			Matcher matcher = artifact.matcher(line);
			if (matcher.find() && !versions.contains(matcher.group(1))) {
				versions.add(matcher.group(1));
			}
		}
		return versions;
	}

	private static String tail(String log) {
		String[] lines = log.split("\n");
		return String.join("\n", Arrays.copyOfRange(lines, Math.max(0, lines.length - 60), lines.length));
	}

}
