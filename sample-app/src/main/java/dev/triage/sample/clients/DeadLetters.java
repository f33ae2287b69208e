package dev.triage.sample.clients;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.triage.PoisonRequestEvent;
import org.springframework.context.event.EventListener;

/**
 * The application's dead letter: every request Triage found to be poison is kept here for someone to look at
 * (a real application would write it to a table or a queue).
 */
public class DeadLetters {

	private final List<PoisonRequestEvent> letters = new CopyOnWriteArrayList<>();

	@EventListener
	public void store(PoisonRequestEvent event) {
		this.letters.add(event);
	}

	public List<PoisonRequestEvent> letters() {
		return List.copyOf(this.letters);
	}

}
